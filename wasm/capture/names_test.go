package capture

import (
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// The exports name the user's opcodes from the capture's header: the
// metrics label their executions, the trace names the opcode of a fault.
func TestExportsNameUserOpcodes(t *testing.T) {
	c := sample()
	last := &c.Frames[len(c.Frames)-1]
	binary.LittleEndian.PutUint32(last.Control[4*(abi.CtrlOpcodeMetrics+abi.UserOpcodeFirst):], 7)
	last.Log = logBuf(4, faultRec(2, 5))
	c.Header.UserOpcodes = []NamedOpcode{{Opcode: abi.UserOpcodeFirst, Name: "histogram"}, {Opcode: 0xdead, Name: "odd"}}

	for _, f := range []Format{FormatOpenMetrics, FormatPrometheus} {
		b, err := Metrics(c, nil, f)
		require.NoError(t, err)
		assert.Contains(t, string(b), `ringscope_opcode_executions_total{opcode="16",name="histogram"} 7`)
		assert.Contains(t, string(b), `ringscope_opcode_executions_total{opcode="0"} `, "built-ins keep their number alone")
	}
	checkOpenMetrics(t, string(must(Metrics(c, nil, FormatOpenMetrics))))

	var tf TraceFile
	require.NoError(t, json.Unmarshal(must(Trace(c)), &tf))
	var named int
	for _, e := range tf.TraceEvents {
		if e.Cat == "fault" && e.Args["opcodeName"] == "odd" {
			named++
		}
	}
	assert.Positive(t, named, "a fault of a named opcode carries its name")

	// The header's names survive the file.
	enc, err := Encode(c)
	require.NoError(t, err)
	back, err := Decode(enc)
	require.NoError(t, err)
	assert.Equal(t, "histogram", back.Header.UserOpcodeName(abi.UserOpcodeFirst))
	assert.Equal(t, "", back.Header.UserOpcodeName(abi.UserOpcodeFirst+1))
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
