// Command mongo-compat runs a MongoDB-wire-compatible server (FerretDB with its SQLite backend,
// or its PostgreSQL backend) on a loopback port, for tests and benchmarks on machines without
// Docker or mongod.
//
// Usage: mongo-compat -listen 127.0.0.1:27017 -dir /path/to/data
//
//	mongo-compat -listen 127.0.0.1:27017 -postgresql-url postgres://127.0.0.1:5432/ferretdb
//
// Clients reach FerretDB through a front (front.go) that runs every command but reads one at a
// time, so an update applies atomically as in MongoDB; -serialize-writes=false lets them overlap.
//
// It prints "ready <addr>" on stdout once it accepts connections and stops on SIGINT/SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("dir", "", "directory for the SQLite files (required without -postgresql-url)")
	postgresqlURL := flag.String("postgresql-url", "", "PostgreSQL database to store in instead of SQLite")
	serialize := flag.Bool("serialize-writes", true, "run every command but reads one at a time (FerretDB updates by a query, then a write)")
	flag.Parse()

	// FerretDB listens on a loopback port of its own; clients reach it through the front.
	config := &ferretdb.Config{Listener: ferretdb.ListenerConfig{TCP: "127.0.0.1:0"}}
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

	backend, err := url.Parse(f.MongoDBURI())
	if err != nil {
		log.Fatal(err)
	}
	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	defer listener.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	go (&front{backend: backend.Host, serialize: *serialize}).serve(listener)
	// Both ports are bound: a connection made now waits in the backlog until it is accepted.
	fmt.Printf("ready %s\n", listener.Addr())
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
