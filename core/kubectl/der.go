package kubectl

// A small reader of DER (ASN.1's distinguished encoding), for what
// `create secret tls` reads of certificates and keys. It takes only what
// DER allows: one-byte tags, definite and minimal lengths, minimal
// integers.

const (
	tagInteger     = 0x02
	tagBitString   = 0x03
	tagOctetString = 0x04
	tagOID         = 0x06
	tagSequence    = 0x30
	// tagExplicit0 and tagExplicit1 are [0] and [1] EXPLICIT.
	tagExplicit0 = 0xa0
	tagExplicit1 = 0xa1
)

// der is encoded ASN.1, read front to back.
type der []byte

// next splits off the next element: its tag, contents and whole encoding.
func (d *der) next() (tag byte, contents, whole der, ok bool) {
	b := *d
	if len(b) < 2 || b[0]&0x1f == 0x1f {
		return 0, nil, nil, false
	}
	n, hdr := int(b[1]), 2
	if n&0x80 != 0 {
		k := n & 0x7f
		if k == 0 || k > 4 || len(b) < 2+k || b[2] == 0 {
			return 0, nil, nil, false // indefinite, too long or not minimal
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		if n < 0x80 {
			return 0, nil, nil, false
		}
		hdr += k
	}
	if n > len(b)-hdr {
		return 0, nil, nil, false
	}
	*d = b[hdr+n:]
	return b[0], b[hdr : hdr+n], b[:hdr+n], true
}

// read reads the contents of the next element if it has tag; otherwise it
// reads nothing and reports false.
func (d *der) read(tag byte) (der, bool) {
	c, _, ok := d.readTagged(tag)
	return c, ok
}

// readElement is read keeping the tag and length (the whole encoding).
func (d *der) readElement(tag byte) (der, bool) {
	_, w, ok := d.readTagged(tag)
	return w, ok
}

func (d *der) readTagged(tag byte) (contents, whole der, ok bool) {
	rest := *d
	t, c, w, ok := rest.next()
	if !ok || t != tag {
		return nil, nil, false
	}
	*d = rest
	return c, w, true
}

// readOptional reads an element of tag if the next one has it: present
// says whether it did, ok is false only for a malformed element.
func (d *der) readOptional(tag byte) (contents der, present, ok bool) {
	if len(*d) == 0 || (*d)[0] != tag {
		return nil, false, true
	}
	c, ok := d.read(tag)
	return c, ok, ok
}

// readInteger reads an INTEGER's two's-complement bytes.
func (d *der) readInteger() (der, bool) {
	rest := *d
	v, ok := rest.read(tagInteger)
	if !ok || len(v) == 0 || len(v) > 1 && (v[0] == 0 && v[1] < 0x80 || v[0] == 0xff && v[1] >= 0x80) {
		return nil, false
	}
	*d = rest
	return v, true
}

// readSmallInteger reads an INTEGER that fits in an int64.
func (d *der) readSmallInteger() (int64, bool) {
	rest := *d
	v, ok := rest.readInteger()
	if !ok || len(v) > 8 {
		return 0, false
	}
	n := int64(int8(v[0]))
	for _, c := range v[1:] {
		n = n<<8 | int64(c)
	}
	*d = rest
	return n, true
}

// readBitString reads a BIT STRING of whole bytes, as keys are.
func (d *der) readBitString() (der, bool) {
	rest := *d
	v, ok := rest.read(tagBitString)
	if !ok || len(v) == 0 || v[0] != 0 {
		return nil, false
	}
	*d = rest
	return v[1:], true
}

// positive reports whether an INTEGER's bytes are above zero.
func positive(v der) bool {
	if len(v) == 0 || v[0]&0x80 != 0 {
		return false
	}
	for _, c := range v {
		if c != 0 {
			return true
		}
	}
	return false
}

// magnitude is an unsigned INTEGER's bytes without a leading zero.
func magnitude(v der) der {
	for len(v) > 1 && v[0] == 0 {
		v = v[1:]
	}
	return v
}
