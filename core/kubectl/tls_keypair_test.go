package kubectl

import (
	"crypto/tls"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The cases `kubectl create secret tls` users meet, with what the real
// kubectl v1.32 printed for each (after "error: ").
func TestCheckKeyPair(t *testing.T) {
	// A name of testdata/tls is read from there; anything else is the
	// file's text.
	read := func(name string) []byte {
		if b, err := os.ReadFile(filepath.Join("testdata", "tls", name)); err == nil && name != "" {
			return b
		}
		return []byte(name)
	}
	const notDER = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
	for _, tc := range []struct{ cert, key, want string }{
		{"rsa.crt", "rsa.key", ""},
		{"rsa.crt", "rsa-pkcs1.key", ""},
		{"ec.crt", "ec.key", ""},
		{"ec.crt", "ec-sec1.key", ""},
		{"ec.crt", "ec-sec1-nopub.key", ""},
		{"ec384.crt", "ec384.key", ""},
		{"ec224.crt", "ec224.key", ""},
		{"ed25519.crt", "ed25519.key", ""},
		// An EC key without its public point is not compared (see
		// ecPrivateKey): the real kubectl refuses the second pair.
		{"ec224.crt", "ec224-nopub.key", ""},
		{"ec384.crt", "ec-sec1-nopub.key", ""},
		{"rsa.crt", "rsa-other.key", "tls: private key does not match public key"},
		{"ec.crt", "ec384.key", "tls: private key does not match public key"},
		{"ec224.crt", "ec224-other.key", "tls: private key does not match public key"},
		{"ed25519.crt", "ed25519-other.key", "tls: private key does not match public key"},
		{"rsa.crt", "ec.key", "tls: private key type does not match public key type"},
		{"ec.crt", "rsa.key", "tls: private key type does not match public key type"},
		{"ed25519.crt", "rsa-pkcs1.key", "tls: private key type does not match public key type"},
		{"rsa.crt", "x25519.key", "tls: found unknown private key type in PKCS#8 wrapping"},
		{"ed448.crt", "ed448.key", "tls: failed to parse private key"},
		{"rsa.crt", "secp256k1.key", "tls: failed to parse private key"},
		{"secp256k1.crt", "secp256k1.key", "x509: unsupported elliptic curve"},
		{"ed448.crt", "rsa.key", "tls: unknown public key algorithm"},
		{"not PEM", "rsa.key", "tls: failed to find any PEM data in certificate input"},
		{"rsa.crt", "", "tls: failed to find any PEM data in key input"},
		{"rsa.key", "rsa.key", "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched"},
		{"rsa.crt", "rsa.crt", "tls: found a certificate rather than a key in the PEM for the private key"},
		{notDER, "rsa.key", "x509: malformed certificate"},
		{"rsa.crt", strings.ReplaceAll(notDER, "CERTIFICATE", "RSA PRIVATE KEY"), "tls: failed to parse private key"},
	} {
		cert, key := read(tc.cert), read(tc.key)
		got := ""
		if err := checkKeyPair(cert, key); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("cert %.20q, key %.20q: got %q, want %q", tc.cert, tc.key, got, tc.want)
		}
	}
}

// PEM blocks of other types are skipped and named, as Go's crypto/tls
// names them.
func TestCheckKeyPairSkippedBlocks(t *testing.T) {
	block := func(typ string) string { return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: []byte{1}})) }
	for _, tc := range []struct{ cert, key, want string }{
		{block("DH PARAMETERS") + block("PUBLIC KEY"), "", `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [DH PARAMETERS PUBLIC KEY]`},
		{block("CERTIFICATE"), block("PUBLIC KEY"), `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [PUBLIC KEY]`},
		{block("CERTIFICATE"), block("CERTIFICATE") + block("CERTIFICATE"), `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [CERTIFICATE CERTIFICATE]`},
	} {
		err := checkKeyPair([]byte(tc.cert), []byte(tc.key))
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// Every certificate and key of testdata/tls, paired every way, is judged
// as Go's crypto/tls judges it, word for word; and a certificate with a
// byte changed or cut short is refused by ours only if Go refuses it. (Go
// reads on through names, dates and extensions, and checks that a point
// is on its curve; ours stops at the public key, so some damage passes.)
func TestCheckKeyPairAgreesWithCryptoTLS(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "tls", "*"))
	var certs, keys [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(f, ".crt"):
			certs = append(certs, b)
		case !strings.HasSuffix(f, "-nopub.key"): // see TestCheckKeyPair
			keys = append(keys, b)
		}
	}
	for _, c := range certs {
		for _, k := range keys {
			_, want := tls.X509KeyPair(c, k)
			got := checkKeyPair(c, k)
			if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
				t.Errorf("got %v, crypto/tls %v\ncert:\n%s\nkey:\n%s", got, want, c, k)
			}
		}
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".crt") {
			continue
		}
		c, _ := os.ReadFile(f)
		k, _ := os.ReadFile(strings.TrimSuffix(f, ".crt") + ".key")
		b, _ := pem.Decode(c)
		for i := range b.Bytes {
			flipped := append([]byte(nil), b.Bytes...)
			flipped[i] ^= 0x41
			for _, d := range [][]byte{flipped, b.Bytes[:i]} {
				cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: d})
				if _, want := tls.X509KeyPair(cert, k); want == nil {
					if got := checkKeyPair(cert, k); got != nil {
						t.Errorf("refused %v where crypto/tls accepts:\n%s", got, cert)
					}
				}
			}
		}
	}
}

func FuzzCheckKeyPair(f *testing.F) {
	c, _ := os.ReadFile(filepath.Join("testdata", "tls", "ec.crt"))
	k, _ := os.ReadFile(filepath.Join("testdata", "tls", "ec.key"))
	f.Add(c, k)
	f.Fuzz(func(t *testing.T, cert, key []byte) {
		checkKeyPair(cert, key) // must not panic
	})
}
