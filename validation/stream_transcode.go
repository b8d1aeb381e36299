package validation

import (
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// transcoder turns a manifest file into the UTF-8 text kubectl reads, as its file
// visitor does (k8s.io/cli-runtime pkg/resource/visitor.go FileVisitor, through
// golang.org/x/text's unicode.BOMOverride(unicode.UTF8.NewDecoder())):
//   - a UTF-16 byte-order mark (FF FE or FE FF) makes the rest UTF-16 (little or big
//     endian), decoded to UTF-8; a byte-order mark met later is a character like any
//     other, unpaired surrogates and a lone final byte become U+FFFD;
//   - a UTF-8 byte-order mark (EF BB BF) is dropped and the rest passes unchanged;
//   - otherwise the text is UTF-8 with every ill-formed sequence replaced by U+FFFD,
//     one replacement per maximal subpart (the W3C rule x/text follows).
//
// The decision needs the first three bytes (fewer only at the end of the input).
type transcoder struct {
	r    io.Reader
	mode int // modeUnknown until the first bytes are seen
	in   []byte
	eof  bool
	err  error
	out  []byte // decoded text; out[pos:] is not returned yet
	pos  int
}

const (
	modeUnknown = iota
	modeUTF8
	modeUTF8Verbatim
	modeUTF16LE
	modeUTF16BE
)

// transcodeChunk is how much input the transcoder reads at a time.
const transcodeChunk = 32 << 10

func newTranscoder(r io.Reader) *transcoder {
	return &transcoder{r: r}
}

// Read implements io.Reader.
func (t *transcoder) Read(p []byte) (int, error) {
	for t.pos == len(t.out) {
		if t.eof && len(t.in) == 0 {
			if t.err != nil {
				return 0, t.err
			}
			return 0, io.EOF
		}
		t.fill()
		t.decode()
	}
	n := copy(p, t.out[t.pos:])
	t.pos += n
	return n, nil
}

// fill reads more input unless the end was reached.
func (t *transcoder) fill() {
	if t.eof {
		return
	}
	if cap(t.in)-len(t.in) < transcodeChunk {
		grown := make([]byte, len(t.in), len(t.in)+transcodeChunk)
		copy(grown, t.in)
		t.in = grown
	}
	n, err := t.r.Read(t.in[len(t.in):cap(t.in)])
	t.in = t.in[:len(t.in)+n]
	if err != nil {
		t.eof = true
		if err != io.EOF {
			t.err = err
		}
	}
}

// decode moves what can be decoded from t.in to t.out.
func (t *transcoder) decode() {
	if t.mode == modeUnknown {
		if len(t.in) < 3 && !t.eof {
			return
		}
		t.mode = modeUTF8
		switch {
		case len(t.in) >= 2 && t.in[0] == 0xFF && t.in[1] == 0xFE:
			t.mode, t.in = modeUTF16LE, t.in[2:]
		case len(t.in) >= 2 && t.in[0] == 0xFE && t.in[1] == 0xFF:
			t.mode, t.in = modeUTF16BE, t.in[2:]
		case len(t.in) >= 3 && t.in[0] == 0xEF && t.in[1] == 0xBB && t.in[2] == 0xBF:
			t.mode, t.in = modeUTF8Verbatim, t.in[3:]
		}
	}
	var used int
	t.pos = 0
	switch t.mode {
	case modeUTF8Verbatim:
		t.out = append(t.out[:0], t.in...)
		used = len(t.in)
	case modeUTF8:
		t.out, used = repairUTF8(t.out[:0], t.in, t.eof)
	default:
		t.out, used = decodeUTF16(t.out[:0], t.in, t.mode == modeUTF16LE, t.eof)
	}
	t.in = append(t.in[:0], t.in[used:]...)
}

// repairUTF8 appends src to dst with each ill-formed UTF-8 sequence replaced by
// U+FFFD, one replacement per maximal subpart of the sequence. Unless atEOF, it stops
// before a sequence that may be completed by more input. It returns the bytes of src
// used.
func repairUTF8(dst, src []byte, atEOF bool) ([]byte, int) {
	if utf8.Valid(src) {
		return append(dst, src...), len(src)
	}
	start := 0 // src[start:i] is valid and not copied yet
	i := 0
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		size, lo, hi := utf8Lead(c)
		bad := 0 // length of the ill-formed subpart when the sequence is invalid
		switch {
		case size == 0:
			bad = 1
		case i+size > len(src) && !atEOF:
			// Possibly incomplete: wait for more input.
			return append(dst, src[start:i]...), i
		case i+1 >= len(src) || src[i+1] < lo || src[i+1] > hi:
			bad = 1
		case size >= 3 && (i+2 >= len(src) || !isContinuation(src[i+2])):
			bad = 2
		case size == 4 && (i+3 >= len(src) || !isContinuation(src[i+3])):
			bad = 3
		}
		if bad == 0 {
			i += size
			continue
		}
		dst = append(dst, src[start:i]...)
		dst = append(dst, "\uFFFD"...)
		i += bad
		start = i
	}
	return append(dst, src[start:]...), len(src)
}

// utf8Lead gives, for a byte at or above 0x80, the length of the sequence it starts
// and the range its second byte must be in; size 0 means it starts no sequence.
func utf8Lead(c byte) (size int, lo, hi byte) {
	switch {
	case c >= 0xC2 && c <= 0xDF:
		return 2, 0x80, 0xBF
	case c == 0xE0:
		return 3, 0xA0, 0xBF
	case c == 0xED:
		return 3, 0x80, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		return 3, 0x80, 0xBF
	case c == 0xF0:
		return 4, 0x90, 0xBF
	case c >= 0xF1 && c <= 0xF3:
		return 4, 0x80, 0xBF
	case c == 0xF4:
		return 4, 0x80, 0x8F
	}
	return 0, 0, 0
}

func isContinuation(c byte) bool { return c >= 0x80 && c <= 0xBF }

// decodeUTF16 appends the UTF-8 form of the UTF-16 text src to dst, as x/text's
// UTF-16 decoder with the byte-order mark ignored does: a surrogate pair is one
// character; a surrogate followed by a low surrogate is decoded as a pair (U+FFFD when
// the first is not a high surrogate); any other surrogate, and a final odd byte, is
// U+FFFD. Unless atEOF, it stops before units that more input may complete.
func decodeUTF16(dst, src []byte, little, atEOF bool) ([]byte, int) {
	unit := func(i int) rune {
		if little {
			return rune(src[i]) | rune(src[i+1])<<8
		}
		return rune(src[i])<<8 | rune(src[i+1])
	}
	i := 0
	for i < len(src) {
		if i+1 >= len(src) {
			if !atEOF {
				break
			}
			dst = utf8.AppendRune(dst, utf8.RuneError)
			i++
			continue
		}
		r, size := unit(i), 2
		if utf16.IsSurrogate(r) {
			switch {
			case i+3 < len(src):
				if next := unit(i + 2); next >= 0xDC00 && next <= 0xDFFF {
					r, size = utf16.DecodeRune(r, next), 4
				}
			case !atEOF:
				return dst, i
			}
		}
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
		i += size
	}
	return dst, i
}
