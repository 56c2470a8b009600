package spin

import (
	"crypto/sha256"
	"sync"
	"testing"
)

var sink [32]byte

// Serial work: GOMAXPROCS changes little.
func BenchmarkSpin(b *testing.B) {
	buf := make([]byte, 1024)
	b.SetBytes(int64(len(buf)))
	for i := 0; i < b.N; i++ {
		sink = sha256.Sum256(buf)
	}
}

// Parallel work: spreads over GOMAXPROCS goroutines.
func BenchmarkParallel(b *testing.B) {
	buf := make([]byte, 1024)
	b.SetBytes(int64(len(buf)))
	b.RunParallel(func(pb *testing.PB) {
		var local [32]byte
		for pb.Next() {
			local = sha256.Sum256(buf)
		}
		_ = local
	})
}

// Allocates and reports a custom metric.
func BenchmarkMap(b *testing.B) {
	var mu sync.Mutex
	keys := 0
	for i := 0; i < b.N; i++ {
		m := make(map[int]int, 64)
		for k := 0; k < 64; k++ {
			m[k] = k
		}
		mu.Lock()
		keys += len(m)
		mu.Unlock()
	}
	b.ReportMetric(float64(keys)/float64(b.N), "keys/op")
}
