package vigil

import (
	"crypto/rand"
	"sync"
)

// uuidv7 is a time-ordered id (RFC 9562) as the agent's own records have: 48 bits of Unix milliseconds, a 12-bit
// counter that keeps ids of one process increasing within a millisecond, 62 random bits.
var (
	idMu      sync.Mutex
	idLastMs  int64 = -1
	idCounter int
	// Random bytes drawn in blocks: one read per 512 ids instead of one per id.
	idPool   [8 * 512]byte
	idPoolAt = len(idPool)
)

func uuidv7(ms int64) string {
	idMu.Lock()
	if ms == idLastMs {
		idCounter = (idCounter + 1) & 0xfff
	} else {
		idLastMs = ms
		idCounter = 0
	}
	counter := idCounter
	if idPoolAt == len(idPool) {
		_, _ = rand.Read(idPool[:])
		idPoolAt = 0
	}
	var b [16]byte
	copy(b[8:], idPool[idPoolAt:idPoolAt+8])
	idPoolAt += 8
	idMu.Unlock()
	b[0], b[1], b[2], b[3], b[4], b[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	b[6] = 0x70 | byte(counter>>8)
	b[7] = byte(counter)
	b[8] = 0x80 | b[8]&0x3f
	out := make([]byte, 36)
	j := 0
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hexDigits[x>>4], hexDigits[x&15]
		j += 2
	}
	return string(out)
}
