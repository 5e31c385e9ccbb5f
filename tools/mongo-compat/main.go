// Command mongo-compat runs a MongoDB-wire-compatible server (FerretDB with its SQLite backend,
// or its PostgreSQL backend) on a loopback port, for tests and benchmarks on machines without
// Docker or mongod.
//
// Usage: mongo-compat -listen 127.0.0.1:27017 -dir /path/to/data
//
//	mongo-compat -listen 127.0.0.1:27017 -postgresql-url postgres://127.0.0.1:5432/ferretdb
//
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
	dir := flag.String("dir", "", "directory for the SQLite files (required without -postgresql-url)")
	postgresqlURL := flag.String("postgresql-url", "", "PostgreSQL database to store in instead of SQLite")
	flag.Parse()

	config := &ferretdb.Config{Listener: ferretdb.ListenerConfig{TCP: *listen}}
	if *postgresqlURL != "" {
		config.Handler = "postgresql"
		config.PostgreSQLURL = *postgresqlURL
	} else {
		config.Handler = "sqlite"
		config.SQLiteURL = sqliteURL(*dir)
	}
	f, err := ferretdb.New(config)
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	go waitUntilListening(*listen)
	f.Run(ctx)
}

// sqliteURL creates the data directory and names it for FerretDB's SQLite backend.
func sqliteURL(dir string) string {
	if dir == "" {
		log.Fatal("-dir is required without -postgresql-url")
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(absDir, 0o755); err != nil {
		log.Fatal(err)
	}
	// A throwaway test server: no fsync per commit (WAL still keeps each commit atomic). With
	// SQLite's default the disk flush dominated every write.
	return "file:" + absDir + "/?_pragma=synchronous(off)"
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
