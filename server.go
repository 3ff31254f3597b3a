// Command ringscope serves the ringscope page (static/) on a local address.
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	flag.Parse()
	log.Printf("ringscope: serving static/ on http://%s", *addr)
	log.Fatal(http.ListenAndServe(*addr, http.FileServer(http.Dir("static"))))
}
