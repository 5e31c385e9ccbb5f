package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/FerretDB/wire"
)

// readMessage reads one whole wire protocol message (the 16-byte header, its length first, then
// the body) and answers it as received, to be forwarded unchanged.
func readMessage(r *bufio.Reader) ([]byte, error) {
	header := make([]byte, wire.MsgHeaderLen)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, err
	}
	length := int(int32(binary.LittleEndian.Uint32(header[0:4])))
	if length < wire.MsgHeaderLen || length > wire.MaxMsgLen {
		return nil, fmt.Errorf("invalid message length %d", length)
	}
	message := make([]byte, length)
	copy(message, header)
	if _, err := io.ReadFull(r, message[wire.MsgHeaderLen:]); err != nil {
		return nil, err
	}
	return message, nil
}

// commandName answers the command an OP_MSG carries (the first key of its body document), or ""
// for any other message (OP_QUERY: the legacy handshake) and for one it cannot parse.
func commandName(message []byte) (name string) {
	// The wire package can index past the end of a malformed body; FerretDB answers that message.
	defer func() {
		if recover() != nil {
			name = ""
		}
	}()
	if wire.OpCode(binary.LittleEndian.Uint32(message[12:16])) != wire.OpCodeMsg {
		return ""
	}
	var msg wire.OpMsg
	if err := msg.UnmarshalBinaryNocopy(message[wire.MsgHeaderLen:]); err != nil {
		return ""
	}
	body := msg.RawSection0()
	if body == nil {
		return ""
	}
	document, err := body.Decode()
	if err != nil {
		return ""
	}
	return document.Command()
}
