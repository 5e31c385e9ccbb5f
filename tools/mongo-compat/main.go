// Command mongo-compat runs a MongoDB-wire-compatible server (FerretDB with its SQLite backend)
// on a loopback port, for tests and benchmarks on machines without Docker or mongod.
//
// Usage: mongo-compat -listen 127.0.0.1:27017 -dir /path/to/data
// It prints "ready <addr>" on stdout once it accepts connections and stops on SIGINT/SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("dir", "", "directory for the SQLite files (required)")
	flag.Parse()
	if *dir == "" {
		log.Fatal("-dir is required")
	}
	absDir, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(absDir, 0o755); err != nil {
		log.Fatal(err)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: *listen},
		Handler:  "sqlite",
		// A throwaway test server: no fsync per commit (WAL still keeps each commit atomic). With
		// SQLite's default the disk flush dominated every write.
		SQLiteURL: "file:" + absDir + "/?_pragma=synchronous(off)",
	})
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	go waitUntilListening(*listen)
	f.Run(ctx)
}

// waitUntilListening announces readiness once the port accepts connections, so the caller
// does not have to poll.
func waitUntilListening(addr string) {
	for i := 0; i < 600; i++ {
		conn, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			conn.Close()
			fmt.Printf("ready %s\n", addr)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	log.Fatalf("server did not start listening on %s", addr)
}
