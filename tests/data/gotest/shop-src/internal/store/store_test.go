package store

import "testing"

func BenchmarkEncode(b *testing.B) {
	m := map[int]int{}
	for i := 0; i < b.N; i++ {
		m[i%64] = i
	}
	b.ReportMetric(float64(len(m)), "keys/op")
}

func BenchmarkPut(b *testing.B) {
	b.Skip("needs a database")
}
