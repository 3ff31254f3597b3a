// Command ringscope serves the ringscope page (static/) on a local address.
//
//	go run . [-addr 127.0.0.1:8080] [-dir static] [-pushgateway http://127.0.0.1:9091]
//
// It serves only GET and HEAD of regular files, gzipped when the client
// accepts it, with the headers that make the page cross-origin isolated and
// a CSP that allows Go wasm and nothing inline. SIGINT or SIGTERM shut it
// down gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Limits of the server. Timeouts are generous for main.wasm (megabytes,
// bench/results-size.md) over a slow link, and short enough that idle or stalled clients are dropped.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 16 << 10
	shutdownTimeout   = 10 * time.Second
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen `address` (host:port)")
	dir := flag.String("dir", "static", "`directory` to serve")
	gateway := flag.String("pushgateway", "", "relay the page's metrics pushes (/pushgateway/…) to the Prometheus Pushgateway at `URL` (push.go)")
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
		log.Fatalf("ringscope: -dir %s: not a directory", *dir)
	}

	var push *pushRelay
	if *gateway != "" {
		var err error
		if push, err = newPushRelay(*gateway); err != nil {
			log.Fatalf("ringscope: %v", err)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("ringscope: %v", err)
	}
	log.Printf("ringscope: serving %s on %s", *dir, serverURL(ln.Addr()))
	if push != nil {
		if err := push.allowHosts(ln.Addr(), *addr); err != nil {
			log.Fatalf("ringscope: %v", err)
		}
		log.Printf("ringscope: relaying %s… to the Pushgateway %s", pushPrefix, push.target)
	}
	if err := serve(ctx, ln, newServer(withPush(newHandler(*dir), push))); err != nil {
		log.Fatalf("ringscope: %v", err)
	}
}

// newServer returns an http.Server for h with the limits above: a bounded
// header size and read-header, read, write and idle timeouts.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// serve runs srv on ln until ctx is done, then shuts it down, giving
// in-flight requests shutdownTimeout to finish. It returns nil after a clean
// shutdown.
func serve(ctx context.Context, ln net.Listener, srv *http.Server) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err // Serve never returns nil
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// serverURL is the URL a browser opens for a listener address.
func serverURL(a net.Addr) string {
	return "http://" + a.String() + "/"
}
