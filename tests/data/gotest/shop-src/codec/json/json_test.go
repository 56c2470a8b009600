package json

import (
	"encoding/json"
	"testing"
)

func BenchmarkEncode(b *testing.B) {
	v := map[string]int{"a": 1, "b": 2}
	b.SetBytes(16)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, _ = json.Marshal(v)
	}
}

func BenchmarkDecode(b *testing.B) {
	b.Fatal("decoder not wired up yet")
}
