package main

import (
	"bufio"
	"log"
	"net"
	"sync"
)

// readOnlyCommands pass the front without its lock. FerretDB answers each from one SQLite or
// PostgreSQL read, which sees a write of a document whole (one statement per document), as
// MongoDB's reads do. getMore must: on a tailable awaitData cursor it waits, up to its
// maxTimeMS, for a write that the lock would hold back.
var readOnlyCommands = map[string]bool{
	"find":      true,
	"getMore":   true,
	"aggregate": true,
	"count":     true,
	"distinct":  true,
}

// front relays MongoDB clients to FerretDB, one FerretDB connection per client. With serialize,
// every command but a read holds one lock from being forwarded until FerretDB's reply is read, so
// such commands run one at a time: FerretDB 1.24 applies findAndModify and update as a query,
// then a write of the whole document, outside a transaction (FerretDB issue #3040), and two
// conditional updates of one document racing there both applied, the second over the first.
type front struct {
	backend   string
	serialize bool
	exclusive sync.Mutex
}

// serve relays every connection the listener accepts until the listener is closed.
func (f *front) serve(listener net.Listener) {
	for {
		client, err := listener.Accept()
		if err != nil {
			return
		}
		go f.relay(client)
	}
}

// relay forwards the client's requests and FerretDB's replies until either side closes.
func (f *front) relay(client net.Conn) {
	defer client.Close()
	backend, err := net.Dial("tcp", f.backend)
	if err != nil {
		log.Printf("front: cannot reach FerretDB: %v", err)
		return
	}
	defer backend.Close()
	fromClient := bufio.NewReader(client)
	fromBackend := bufio.NewReader(backend)
	for {
		// The whole request is read before the lock is taken, so a slow client holds up no one.
		request, err := readMessage(fromClient)
		if err != nil {
			return
		}
		reply, err := f.roundTrip(request, backend, fromBackend)
		if err != nil {
			return
		}
		// Written after the lock is released: the command has run once FerretDB answered.
		if _, err := client.Write(reply); err != nil {
			return
		}
	}
}

// roundTrip sends one request to FerretDB and reads its reply. FerretDB 1.24 answers every
// request with exactly one reply (it streams none and ignores moreToCome) or closes the
// connection, so the lock is held for one command's run and no longer.
func (f *front) roundTrip(request []byte, backend net.Conn, fromBackend *bufio.Reader) ([]byte, error) {
	if f.serialize && !readOnlyCommands[commandName(request)] {
		f.exclusive.Lock()
		defer f.exclusive.Unlock()
	}
	if _, err := backend.Write(request); err != nil {
		return nil, err
	}
	return readMessage(fromBackend)
}
