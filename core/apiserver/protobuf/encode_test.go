package protobuf

import "encoding/binary"

// A minimal protobuf encoder for building test bodies by hand.

func pbVarint(b []byte, num int, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|wireVarint)
	return binary.AppendUvarint(b, v)
}

func pbBytes(b []byte, num int, data []byte) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|wireBytes)
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

func pbString(b []byte, num int, s string) []byte { return pbBytes(b, num, []byte(s)) }

// pbEnvelope wraps an object's message in the magic and a runtime.Unknown.
func pbEnvelope(apiVersion, kind string, raw []byte) []byte {
	tm := pbString(pbString(nil, 1, apiVersion), 2, kind)
	return pbBytes(pbBytes(append([]byte(nil), magic...), 1, tm), 2, raw)
}
