package vigil

import (
	"strings"
	"testing"
)

func TestTheConnectionScanFindsEveryHeadWhateverTheReadsCutItInto(t *testing.T) {
	stream := "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nx\r\n\r\n" + // a body that looks like a head's end
		"POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nTrailer-A: 1\r\n\r\n" +
		"GET /c?q=1 HTTP/1.1\r\nHost: h\r\nX-Spaced:   v  \r\nx-Mixed: 1\r\n\r\n" +
		"GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n" +
		"GET /never HTTP/1.1\r\n\r\n" // after an upgrade the bytes are another protocol's
	for _, size := range []int{1, 2, 3, 7, 64, len(stream)} {
		c := &wireConn{}
		for i := 0; i < len(stream); i += size {
			end := i + size
			if end > len(stream) {
				end = len(stream)
			}
			c.scan([]byte(stream[i:end]))
		}
		var got []string
		for _, h := range c.heads {
			m, target := h.requestLine()
			got = append(got, m+" "+target+" "+strings.Join(h.fields(), "|"))
		}
		want := []string{
			"POST /a Host|h|Content-Length|5",
			"POST /b Host|h|Transfer-Encoding|gzip, chunked",
			"GET /c?q=1 Host|h|X-Spaced|v|x-Mixed|1",
			"GET /ws Host|h|Upgrade|websocket",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("reads of %d bytes: heads\n%s\nwant\n%s", size, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestTheConnectionScanKeepsABoundedNumberOfHeads(t *testing.T) {
	c := &wireConn{}
	for i := 0; i < 3*maxWireHeads; i++ {
		c.scan([]byte("GET /r HTTP/1.1\r\nHost: h\r\n\r\n"))
	}
	if len(c.heads) != maxWireHeads {
		t.Errorf("%d heads kept, want %d", len(c.heads), maxWireHeads)
	}
	c.scan([]byte("GET /x HTTP/1.1\r\n" + strings.Repeat("X-Long: "+strings.Repeat("a", 1000)+"\r\n", 1100)))
	if c.state != wireDone || c.heads != nil {
		t.Errorf("a head past net/http's limit is still scanned (state %d)", c.state)
	}
}
