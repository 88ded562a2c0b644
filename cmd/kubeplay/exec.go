package main

import (
	"bufio"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
)

// pods/exec over WebSocket: the channel protocols (v5.channel.k8s.io and
// v4.channel.k8s.io) that kubectl 1.30 and later speak first. Every binary
// message starts with its channel: 1 stdout, 2 stderr, 3 the final Status
// (v5 adds 255, a stream's close signal). The command runs to its end under
// the engine's lock, its output kept in the order written; the frames go out
// after, without the lock. Stdin is not read: a command gets an empty one.

var execProtocols = []string{"v5.channel.k8s.io", "v4.channel.k8s.io"}

// streamSetupDelay is how long the client gets to set up its streams
// before the first frame.
const streamSetupDelay = 100 * time.Millisecond

// websocketGUID is RFC 6455's key suffix for Sec-WebSocket-Accept.
const websocketGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// exec answers a pods/exec request; it is called with e.mu held and
// releases it.
func (e *engine) exec(w http.ResponseWriter, r *http.Request, h *apiserver.Handler, o *apiserver.ExecOptions) {
	proto := ""
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") && r.Header.Get("Sec-WebSocket-Key") != "" {
		offered := map[string]bool{}
		for _, v := range r.Header.Values("Sec-WebSocket-Protocol") {
			for _, p := range strings.Split(v, ",") {
				offered[strings.TrimSpace(p)] = true
			}
		}
		for _, p := range execProtocols {
			if offered[p] {
				proto = p
				break
			}
		}
	}
	if proto == "" {
		// SPDY, or a client that offers no channel protocol we speak.
		e.mu.Unlock()
		apiserver.WriteError(apiWriter{w}, apierrors.NewBadRequest("Upgrade request required"))
		return
	}
	var out frames
	code, err := h.Exec(o, strings.NewReader(""), out.channel(1), out.channel(2))
	e.cluster.Settle()
	e.mu.Unlock()
	if err != nil {
		apiserver.WriteError(apiWriter{w}, err)
		return
	}
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		apiserver.WriteError(apiWriter{w}, apierrors.NewInternalError(err))
		return
	}
	defer conn.Close()
	sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + websocketGUID))
	rw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Accept: " + base64.StdEncoding.EncodeToString(sum[:]) + "\r\n" +
		"Sec-WebSocket-Protocol: " + proto + "\r\n\r\n")
	if rw.Flush() != nil {
		return
	}
	// kubectl 1.32's client (client-go v0.32) starts reading frames while it
	// is still creating its streams, and drops a frame for a stream it has
	// not made yet; a real exec's first output comes later than this.
	time.Sleep(streamSetupDelay)
	for _, f := range out.list {
		writeFrame(rw.Writer, 0x2, f)
	}
	writeFrame(rw.Writer, 0x2, append([]byte{3}, apiserver.ExecStatus(o, code)...))
	writeFrame(rw.Writer, 0x8, []byte{0x03, 0xe8}) // close: 1000, normal closure
	if rw.Flush() != nil {
		return
	}
	// Read until the client answers the close (or goes away).
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	readUntilClose(rw.Reader)
}

// frames keeps a command's output as channel-tagged messages, in order.
type frames struct {
	mu   sync.Mutex
	list [][]byte
}

type channelWriter struct {
	f  *frames
	ch byte
}

func (f *frames) channel(ch byte) io.Writer { return channelWriter{f, ch} }

func (w channelWriter) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	w.f.mu.Lock()
	w.f.list = append(w.f.list, append([]byte{w.ch}, b...))
	w.f.mu.Unlock()
	return len(b), nil
}

// writeFrame writes one unmasked server frame with FIN set.
func writeFrame(w *bufio.Writer, opcode byte, payload []byte) {
	w.WriteByte(0x80 | opcode)
	switch n := len(payload); {
	case n < 126:
		w.WriteByte(byte(n))
	case n <= 0xffff:
		w.WriteByte(126)
		var b [2]byte
		binary.BigEndian.PutUint16(b[:], uint16(n))
		w.Write(b[:])
	default:
		w.WriteByte(127)
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(n))
		w.Write(b[:])
	}
	w.Write(payload)
}

// readUntilClose reads the client's frames (masked, as RFC 6455 requires)
// and returns at its close frame or at an error.
func readUntilClose(r *bufio.Reader) {
	for {
		var hdr [2]byte
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return
		}
		n := uint64(hdr[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(r, b[:]); err != nil {
				return
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(r, b[:]); err != nil {
				return
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		if hdr[1]&0x80 != 0 {
			n += 4 // the mask key
		}
		if _, err := io.CopyN(io.Discard, r, int64(n)); err != nil {
			return
		}
		if hdr[0]&0x0f == 0x8 {
			return
		}
	}
}
