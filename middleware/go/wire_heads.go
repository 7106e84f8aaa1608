package vigil

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// net/http hands a handler the request's header fields in a map: their order, the spelling of their names, and a
// Host that an absolute-form target overrides are gone. The TypeScript engine records them as they came (Node's
// rawHeaders). An app that wants the same records lets the middleware read the heads off the connection:
//
//	server := &http.Server{Handler: agent.Middleware(mux), ConnContext: agent.ConnContext}
//	server.Serve(agent.Listener(ln))
//
// Each connection's bytes are scanned as net/http reads them (never held or changed): the request heads are kept,
// in order, and the bodies skipped by their framing. A request's head is then taken by its handler. Without the
// two hooks (or over TLS, HTTP/2, or after a protocol upgrade) the record holds the fields in net/http's order.

// wireHead is one request head as it came: its text, parsed only when a handler that records headers takes it (a
// restricted route costs the copy of its head and a scan for its framing, nothing more).
type wireHead struct {
	text string
}

// requestLine is the head's method and target.
func (h wireHead) requestLine() (string, string) {
	line := h.text
	if i := strings.Index(line, "\r\n"); i != -1 {
		line = line[:i]
	}
	method, rest, _ := strings.Cut(line, " ")
	target, _, _ := strings.Cut(rest, " ")
	return method, target
}

// fields are the header fields as sent: name, value, … (values as Node reads them: one character per byte).
func (h wireHead) fields() []string {
	lines := strings.Split(h.text, "\r\n")[1:]
	out := make([]string, 0, 2*len(lines))
	for _, line := range lines {
		if colon := strings.IndexByte(line, ':'); colon > 0 {
			out = append(out, latin1(line[:colon]), latin1(strings.Trim(line[colon+1:], " \t")))
		}
	}
	return out
}

const (
	maxWireHeadBytes = 1<<20 + 4096 // net/http's DefaultMaxHeaderBytes, and its slack
	maxWireHeads     = 64           // heads read ahead of their handlers on one connection
)

type wireState int

const (
	wireHeadState wireState = iota
	wireBody
	wireChunkSize
	wireChunkData
	wireChunkEnd
	wireTrailers
	wireDone // given up: an upgrade, a CONNECT, something unreadable
)

// wireConn scans what net/http reads from the connection.
type wireConn struct {
	net.Conn
	mu     sync.Mutex
	state  wireState
	buf    []byte
	remain int64
	heads  []wireHead
}

type wireConnKey struct{}

// Listener wraps a plain-HTTP listener so that the middleware can record each request's header fields as they
// came; use it with ConnContext.
func (a *Agent) Listener(ln net.Listener) net.Listener { return wireListener{ln} }

// ConnContext is for http.Server.ConnContext: it lets the middleware find the connection a request came on.
func (a *Agent) ConnContext(ctx context.Context, c net.Conn) context.Context {
	if w, ok := c.(*wireConn); ok {
		return context.WithValue(ctx, wireConnKey{}, w)
	}
	return ctx
}

type wireListener struct{ net.Listener }

func (l wireListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &wireConn{Conn: c}, nil
}

func (c *wireConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		c.scan(p[:n])
		c.mu.Unlock()
	}
	return n, err
}

func (c *wireConn) scan(p []byte) {
	for len(p) > 0 && c.state != wireDone {
		switch c.state {
		case wireHeadState:
			if len(c.buf) == 0 {
				// net/http skips blank lines before a request line.
				for len(p) > 0 && (p[0] == '\r' || p[0] == '\n') {
					p = p[1:]
				}
				if len(p) == 0 {
					return
				}
				// The commonest case: the whole head in this read.
				if end := bytes.Index(p, []byte("\r\n\r\n")); end != -1 {
					c.head(string(p[:end]))
					p = p[end+4:]
					continue
				}
			}
			c.buf = append(c.buf, p...)
			end := bytes.Index(c.buf, []byte("\r\n\r\n"))
			if end == -1 {
				if len(c.buf) > maxWireHeadBytes {
					c.giveUp()
				}
				return
			}
			rest := append([]byte(nil), c.buf[end+4:]...)
			c.head(string(c.buf[:end]))
			c.buf = c.buf[:0]
			p = rest
		case wireBody:
			n := int64(len(p))
			if n > c.remain {
				n = c.remain
			}
			c.remain -= n
			p = p[n:]
			if c.remain == 0 {
				c.state = wireHeadState
			}
		case wireChunkSize, wireChunkEnd, wireTrailers:
			i := bytes.IndexByte(p, '\n')
			if i == -1 {
				c.buf = append(c.buf, p...)
				if len(c.buf) > 4096 {
					c.giveUp()
				}
				return
			}
			line := strings.TrimRight(string(append(c.buf, p[:i]...)), "\r")
			c.buf = c.buf[:0]
			p = p[i+1:]
			switch c.state {
			case wireChunkSize:
				size, err := strconv.ParseInt(strings.TrimSpace(strings.SplitN(line, ";", 2)[0]), 16, 64)
				switch {
				case err != nil || size < 0:
					c.giveUp()
				case size == 0:
					c.state = wireTrailers
				default:
					c.remain, c.state = size, wireChunkData
				}
			case wireChunkEnd:
				c.state = wireChunkSize
			case wireTrailers:
				if line == "" {
					c.state = wireHeadState
				}
			}
		case wireChunkData:
			n := int64(len(p))
			if n > c.remain {
				n = c.remain
			}
			c.remain -= n
			p = p[n:]
			if c.remain == 0 {
				c.state = wireChunkEnd
			}
		}
	}
}

func (c *wireConn) giveUp() {
	c.state = wireDone
	c.buf = nil
	c.heads = nil
}

// head records one request head and sets the state for its body from its framing fields.
func (c *wireConn) head(text string) {
	h := wireHead{text: text}
	method, _ := h.requestLine()
	length := int64(0)
	chunked, upgrade := false, false
	for at := strings.Index(text, "\r\n"); at != -1 && at+2 < len(text); {
		next := strings.Index(text[at+2:], "\r\n")
		line := text[at+2:]
		if next != -1 {
			line = line[:next]
		}
		colon := strings.IndexByte(line, ':')
		if colon <= 0 {
			c.giveUp()
			return
		}
		name := line[:colon]
		switch {
		case strings.EqualFold(name, "content-length"):
			n, err := strconv.ParseInt(strings.Trim(line[colon+1:], " \t"), 10, 64)
			if err != nil || n < 0 {
				c.giveUp()
				return
			}
			length = n
		case strings.EqualFold(name, "transfer-encoding"):
			chunked = chunked || strings.Contains(strings.ToLower(line[colon+1:]), "chunked")
		case strings.EqualFold(name, "upgrade"):
			upgrade = true
		}
		if next == -1 {
			break
		}
		at += 2 + next
	}
	if len(c.heads) == maxWireHeads {
		c.heads = c.heads[1:] // heads no handler took (restricted routes): the oldest goes
	}
	c.heads = append(c.heads, h)
	switch {
	case upgrade || method == http.MethodConnect || strings.HasPrefix(method, "PRI"):
		c.state = wireDone // what follows may be another protocol
	case chunked:
		c.state = wireChunkSize
	case length > 0:
		c.state, c.remain = wireBody, length
	default:
		c.state = wireHeadState
	}
}

// takeHead is the head of the request with `method` and `target` (the oldest such; older ones that no handler of
// this middleware took are dropped), or nil.
func takeHead(r *http.Request) *wireHead {
	c, _ := r.Context().Value(wireConnKey{}).(*wireConn)
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, h := range c.heads {
		if method, target := h.requestLine(); method == r.Method && target == r.RequestURI {
			c.heads = c.heads[i+1:]
			return &h
		}
	}
	return nil
}
