// Byte-throughput benchmarks (b.SetBytes: go test prints MB/s beside ns/op), run twice on
// the same code to make a real A/A pair; see ../README.md.
package aa

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"hash/crc32"
	"testing"
)

func data(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/13)
	}
	return b
}

func BenchmarkSHA256(b *testing.B) {
	for _, n := range []int{64, 1024, 65536} {
		buf := data(n)
		b.Run(sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				sha256.Sum256(buf)
			}
		})
	}
}

func BenchmarkCRC32(b *testing.B) {
	buf := data(4096)
	b.SetBytes(int64(len(buf)))
	for i := 0; i < b.N; i++ {
		crc32.ChecksumIEEE(buf)
	}
}

func BenchmarkCopy(b *testing.B) {
	src, dst := data(1<<20), make([]byte, 1<<20)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		copy(dst, src)
	}
}

func BenchmarkDeflate(b *testing.B) {
	src := data(32768)
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestSpeed)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		out.Reset()
		w.Reset(&out)
		w.Write(src)
		w.Close()
	}
}

func sizeName(n int) string {
	switch {
	case n >= 1024:
		return itoa(n/1024) + "KiB"
	default:
		return itoa(n) + "B"
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
