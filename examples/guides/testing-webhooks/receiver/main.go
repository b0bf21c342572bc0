// Command receiver is a minimal webhook handler for the payments service:
// it verifies the Payments-Signature header of each delivery and prints
// the event. It needs nothing but the standard library.
//
//	WEBHOOK_SECRET=$(terraform output -raw webhook_secret) go run .
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// tolerance is how old a signature may be: older ones are replays.
const tolerance = 5 * time.Minute

// verify checks header, "t=<unix seconds>,v1=<hex>", against the body: one
// v1 must be the HMAC-SHA256 of "<t>.<body>" keyed with the secret.
func verify(header, secret string, body []byte, now time.Time) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return errors.New("malformed Payments-Signature header")
	}
	if age := now.Sub(time.Unix(unix, 0)); age > tolerance || age < -tolerance {
		return errors.New("signature timestamp outside the tolerance")
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, s := range sigs {
		if got, err := hex.DecodeString(s); err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no signature matches")
}

func main() {
	secret := os.Getenv("WEBHOOK_SECRET")
	if secret == "" {
		log.Fatal("set WEBHOOK_SECRET to the endpoint's secret")
	}
	http.HandleFunc("POST /webhooks", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err := verify(r.Header.Get("Payments-Signature"), secret, body, time.Now()); err != nil {
			log.Printf("rejected a delivery: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var event struct {
			ID   string `json:"id"`
			Type string `json:"type"`
			Data struct {
				Object json.RawMessage `json:"object"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &event); err != nil {
			http.Error(w, "not an event", http.StatusBadRequest)
			return
		}
		// Answer quickly (within 10 s) and do slow work afterwards; the
		// same event may come twice, so key your work by event.ID.
		log.Printf("%s %s %s", event.ID, event.Type, event.Data.Object)
		w.WriteHeader(http.StatusOK)
	})
	log.Print("listening on http://127.0.0.1:4242/webhooks")
	log.Fatal(http.ListenAndServe("127.0.0.1:4242", nil))
}
