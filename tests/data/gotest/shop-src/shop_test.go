package shop

import (
	"strings"
	"testing"
)

func BenchmarkJoin(b *testing.B) {
	parts := []string{"a", "b", "c", "d"}
	for i := 0; i < b.N; i++ {
		_ = strings.Join(parts, ",")
	}
}
