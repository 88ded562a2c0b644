package kubectl

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// checkKeyPair is the check kubectl's `create secret tls` makes of its
// files (Go's tls.X509KeyPair): a CERTIFICATE block and a PRIVATE KEY
// block, a certificate that reads, a private key in PKCS #1, PKCS #8 or
// SEC 1 form, and the two sides of one key pair. Errors are worded as Go's
// crypto/tls and crypto/x509 word them, since kubectl prints those. It
// reads the DER itself because crypto/x509, with RSA, ECDSA and the NIST
// curves behind it, is over a megabyte of the page's download. It reads a
// certificate up to its public key; what follows it, names and extensions,
// is not checked.
func checkKeyPair(certPEM, keyPEM []byte) error {
	var certDER []byte
	found := false
	var skipped []string
	for {
		var b *pem.Block
		if b, certPEM = pem.Decode(certPEM); b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			skipped = append(skipped, b.Type)
		} else if !found {
			certDER, found = b.Bytes, true
		}
	}
	if !found {
		switch {
		case len(skipped) == 0:
			return errors.New("tls: failed to find any PEM data in certificate input")
		case len(skipped) == 1 && strings.HasSuffix(skipped[0], "PRIVATE KEY"):
			return errors.New("tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched")
		}
		return fmt.Errorf("tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: %v", skipped)
	}
	skipped = nil
	var keyDER []byte
	for found = false; !found; {
		var b *pem.Block
		if b, keyPEM = pem.Decode(keyPEM); b == nil {
			switch {
			case len(skipped) == 0:
				return errors.New("tls: failed to find any PEM data in key input")
			case len(skipped) == 1 && skipped[0] == "CERTIFICATE":
				return errors.New("tls: found a certificate rather than a key in the PEM for the private key")
			}
			return fmt.Errorf("tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: %v", skipped)
		}
		if b.Type == "PRIVATE KEY" || strings.HasSuffix(b.Type, " PRIVATE KEY") {
			keyDER, found = b.Bytes, true
		} else {
			skipped = append(skipped, b.Type)
		}
	}
	pub, err := certificatePublicKey(certDER)
	if err != nil {
		return err
	}
	priv, err := parsePrivateKey(keyDER)
	if err != nil {
		return err
	}
	switch pub.alg {
	case algRSA, algECDSA, algEd25519:
	default:
		return errors.New("tls: unknown public key algorithm")
	}
	if priv.alg != pub.alg {
		return errors.New("tls: private key type does not match public key type")
	}
	if priv.id != nil && !bytes.Equal(priv.id, pub.id) {
		return errors.New("tls: private key does not match public key")
	}
	return nil
}

// Public key algorithms, as a certificate or a PKCS #8 key names them.
const (
	algRSA     = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01" // 1.2.840.113549.1.1.1
	algECDSA   = "\x2a\x86\x48\xce\x3d\x02\x01"         // 1.2.840.10045.2.1
	algEd25519 = "\x2b\x65\x70"                         // 1.3.101.112
	algX25519  = "\x2b\x65\x6e"                         // 1.3.101.110
)

// curveSizes are the named curves Go reads, by OID, with the size of a
// coordinate.
var curveSizes = map[string]int{
	"\x2b\x81\x04\x00\x21":             28, // P-224
	"\x2a\x86\x48\xce\x3d\x03\x01\x07": 32, // P-256
	"\x2b\x81\x04\x00\x22":             48, // P-384
	"\x2b\x81\x04\x00\x23":             66, // P-521
}

// keyID is one side of a key pair: its algorithm and what identifies the
// pair (RSA's modulus and exponent, the curve and point, Ed25519's public
// key); id is nil when a private key does not tell.
type keyID struct {
	alg string
	id  []byte
}

// certificatePublicKey reads a certificate as far as its public key.
func certificatePublicKey(b der) (keyID, error) {
	cert, ok := b.read(tagSequence)
	if !ok {
		return keyID{}, errors.New("x509: malformed certificate")
	}
	tbs, ok := cert.read(tagSequence)
	if !ok {
		return keyID{}, errors.New("x509: malformed tbs certificate")
	}
	version := int64(0)
	if v, present, ok := tbs.readOptional(tagExplicit0); !ok {
		return keyID{}, errors.New("x509: malformed version")
	} else if present {
		if version, ok = v.readSmallInteger(); !ok || len(v) != 0 || version < 0 {
			return keyID{}, errors.New("x509: malformed version")
		}
	}
	if version > 2 {
		return keyID{}, errors.New("x509: invalid version")
	}
	serial, ok := tbs.readInteger()
	if !ok {
		return keyID{}, errors.New("x509: malformed serial number")
	}
	if serial[0]&0x80 != 0 {
		return keyID{}, errors.New("x509: negative serial number")
	}
	sigAlg, ok := tbs.read(tagSequence)
	if !ok {
		return keyID{}, errors.New("x509: malformed signature algorithm identifier")
	}
	outerSigAlg, ok := cert.read(tagSequence)
	if !ok {
		return keyID{}, errors.New("x509: malformed algorithm identifier")
	}
	if !bytes.Equal(sigAlg, outerSigAlg) {
		return keyID{}, errors.New("x509: inner and outer signature algorithm identifiers don't match")
	}
	if _, _, err := algorithmIdentifier(sigAlg); err != nil {
		return keyID{}, err
	}
	if _, ok := tbs.read(tagSequence); !ok {
		return keyID{}, errors.New("x509: malformed issuer")
	}
	if _, ok := tbs.read(tagSequence); !ok {
		return keyID{}, errors.New("x509: malformed validity")
	}
	if _, ok := tbs.read(tagSequence); !ok {
		return keyID{}, errors.New("x509: malformed issuer") // sic: Go says issuer for the subject too
	}
	spki, ok := tbs.read(tagSequence)
	if !ok {
		return keyID{}, errors.New("x509: malformed spki")
	}
	ai, ok := spki.read(tagSequence)
	if !ok {
		return keyID{}, errors.New("x509: malformed public key algorithm identifier")
	}
	alg, params, err := algorithmIdentifier(ai)
	if err != nil {
		return keyID{}, err
	}
	key, ok := spki.readBitString()
	if !ok {
		return keyID{}, errors.New("x509: malformed subjectPublicKey")
	}
	return publicKey(alg, params, key)
}

// algorithmIdentifier reads an AlgorithmIdentifier's OID and its
// parameters' whole encoding (nil when absent).
func algorithmIdentifier(ai der) (oid string, params der, err error) {
	o, ok := ai.read(tagOID)
	if !ok {
		return "", nil, errors.New("x509: malformed OID")
	}
	if len(ai) == 0 {
		return string(o), nil, nil
	}
	_, _, params, ok = ai.next()
	if !ok {
		return "", nil, errors.New("x509: malformed parameters")
	}
	return string(o), params, nil
}

// publicKey reads a certificate's subjectPublicKey as Go's x509 does for
// the algorithms it knows; the others are returned by OID alone.
func publicKey(alg string, params, key der) (keyID, error) {
	switch alg {
	case algRSA:
		if string(params) != "\x05\x00" {
			return keyID{}, errors.New("x509: RSA key missing NULL parameters")
		}
		seq, ok := key.read(tagSequence)
		if !ok {
			return keyID{}, errors.New("x509: invalid RSA public key")
		}
		n, ok := seq.readInteger()
		if !ok {
			return keyID{}, errors.New("x509: invalid RSA modulus")
		}
		e, ok := seq.readSmallInteger()
		if !ok {
			return keyID{}, errors.New("x509: invalid RSA public exponent")
		}
		if !positive(n) {
			return keyID{}, errors.New("x509: RSA modulus is not a positive number")
		}
		if e <= 0 {
			return keyID{}, errors.New("x509: RSA public exponent is not a positive number")
		}
		return keyID{algRSA, rsaID(n, e)}, nil
	case algECDSA:
		curve, ok := params.read(tagOID)
		if !ok {
			return keyID{}, errors.New("x509: invalid ECDSA parameters")
		}
		size, ok := curveSizes[string(curve)]
		if !ok {
			return keyID{}, errors.New("x509: unsupported elliptic curve")
		}
		if len(key) != 1+2*size || key[0] != 4 {
			return keyID{}, errors.New("x509: failed to unmarshal elliptic curve point")
		}
		return keyID{algECDSA, append([]byte(curve), key...)}, nil
	case algEd25519:
		if len(params) != 0 {
			return keyID{}, errors.New("x509: Ed25519 key encoded with illegal parameters")
		}
		if len(key) != 32 {
			return keyID{}, errors.New("x509: wrong Ed25519 public key size")
		}
		return keyID{algEd25519, key}, nil
	case algX25519:
		if len(params) != 0 {
			return keyID{}, errors.New("x509: X25519 key encoded with illegal parameters")
		}
	}
	return keyID{alg: alg}, nil
}

func rsaID(n der, e int64) []byte {
	return fmt.Appendf(append([]byte(nil), magnitude(n)...), "/%d", e)
}

// parsePrivateKey reads a private key as tls.X509KeyPair does: PKCS #1,
// then PKCS #8, then SEC 1; whatever fails, the error is the same.
func parsePrivateKey(b der) (keyID, error) {
	if k, ok := pkcs1PrivateKey(b); ok {
		return k, nil
	}
	if k, ok, known := pkcs8PrivateKey(b); ok {
		if !known {
			return keyID{}, errors.New("tls: found unknown private key type in PKCS#8 wrapping")
		}
		return k, nil
	}
	if k, ok := ecPrivateKey(b, ""); ok {
		return k, nil
	}
	return keyID{}, errors.New("tls: failed to parse private key")
}

// pkcs1PrivateKey reads RSA's own form: version, modulus, public and
// private exponents, primes and CRT values. (The primes are not multiplied
// out against the modulus.)
func pkcs1PrivateKey(b der) (keyID, bool) {
	seq, ok := b.read(tagSequence)
	if !ok || len(b) != 0 {
		return keyID{}, false
	}
	version, ok := seq.readSmallInteger()
	if !ok || version > 1 {
		return keyID{}, false
	}
	n, ok1 := seq.readInteger()
	e, ok2 := seq.readSmallInteger()
	if !ok1 || !ok2 || !positive(n) {
		return keyID{}, false
	}
	for i := 0; i < 6; i++ { // d, p, q, dP, dQ, qInv
		v, ok := seq.readInteger()
		if !ok || i < 3 && !positive(v) {
			return keyID{}, false
		}
	}
	return keyID{algRSA, rsaID(n, e)}, true
}

// pkcs8PrivateKey reads the algorithm-tagged wrapping; known is false for
// a key Go reads but TLS does not use (X25519).
func pkcs8PrivateKey(b der) (k keyID, ok, known bool) {
	seq, ok := b.read(tagSequence)
	if !ok {
		return keyID{}, false, false
	}
	if _, ok := seq.readSmallInteger(); !ok {
		return keyID{}, false, false
	}
	ai, ok := seq.read(tagSequence)
	if !ok {
		return keyID{}, false, false
	}
	alg, ok := ai.read(tagOID)
	if !ok {
		return keyID{}, false, false
	}
	var params der
	if len(ai) > 0 {
		if _, _, params, ok = ai.next(); !ok {
			return keyID{}, false, false
		}
	}
	inner, ok := seq.read(tagOctetString)
	if !ok {
		return keyID{}, false, false
	}
	switch string(alg) {
	case algRSA:
		k, ok := pkcs1PrivateKey(inner)
		return k, ok, true
	case algECDSA:
		curve, _ := params.read(tagOID)
		k, ok := ecPrivateKey(inner, string(curve))
		return k, ok, true
	case algEd25519, algX25519:
		seed, ok := inner.read(tagOctetString)
		if len(params) != 0 || !ok || len(seed) != 32 {
			return keyID{}, false, false
		}
		if string(alg) == algX25519 {
			return keyID{}, true, false
		}
		return keyID{algEd25519, ed25519PublicKey(seed)}, true, true
	}
	return keyID{}, false, false
}

// ecPrivateKey reads SEC 1's form; curve is the PKCS #8 wrapping's, when
// there is one. Go works the public point out from the private value; this
// takes the key's own copy of it (which OpenSSL writes), and without one
// the pair is not compared: the curves' arithmetic would add a quarter of a
// megabyte (gzip) to the page.
func ecPrivateKey(b der, curve string) (keyID, bool) {
	seq, ok := b.read(tagSequence)
	if !ok {
		return keyID{}, false
	}
	version, ok := seq.readSmallInteger()
	if !ok || version != 1 {
		return keyID{}, false
	}
	d, ok := seq.read(tagOctetString)
	if !ok {
		return keyID{}, false
	}
	named, _, ok := seq.readOptional(tagExplicit0)
	if !ok {
		return keyID{}, false
	}
	point, _, ok := seq.readOptional(tagExplicit1)
	if !ok {
		return keyID{}, false
	}
	if curve == "" {
		o, _ := named.read(tagOID)
		curve = string(o)
	}
	size, ok := curveSizes[curve]
	if !ok {
		return keyID{}, false
	}
	for len(d) > size {
		if d[0] != 0 {
			return keyID{}, false
		}
		d = d[1:]
	}
	if p, ok := point.readBitString(); ok && len(p) == 1+2*size && p[0] == 4 {
		return keyID{algECDSA, append([]byte(curve), p...)}, true
	}
	return keyID{alg: algECDSA}, true
}
