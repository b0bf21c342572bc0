package dashboard

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// accountLabel names an account on pages without showing its key: the
// first hex digits of the key's SHA-256.
func accountLabel(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "account " + hex.EncodeToString(sum[:4])
}

// home is GET /: the sign-in form, or the account's home page when
// signed in.
func (d *Dashboard) home(w http.ResponseWriter, r *http.Request) {
	if ss := d.sessions.current(r); ss != nil || r.Header.Get(liveHeader) != "" {
		d.overviewPage.ServeHTTP(w, r) // a live refresh without a session is its 401
		return
	}
	d.render(w, r, nil, http.StatusOK, "signin.html", d.signinView("", false))
}

func (d *Dashboard) signIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	key := strings.TrimSpace(r.PostFormValue("key"))
	again := func(status int, msg string) {
		d.render(w, r, nil, status, "signin.html", d.signinView(msg, true))
	}
	if key == "" {
		again(http.StatusBadRequest, "Enter a secret key ("+wire.SecretKeySandboxPrefix+"…).")
		return
	}
	// The account control checks the key (a publishable key is 403 there)
	// and tells the publishable key the pages show.
	var acct wire.SandboxAccount
	err := d.call(r.Context(), key, http.MethodGet, wire.PathSandboxAccount, nil, &acct)
	var ae *apiError
	switch {
	case errors.As(err, &ae) && (ae.status == http.StatusUnauthorized || ae.status == http.StatusForbidden):
		again(http.StatusUnauthorized, "That key was not accepted. "+ae.message)
		return
	case err != nil:
		again(http.StatusBadGateway, "The sandbox could not check the key: "+err.Error())
		return
	}
	if old := d.sessions.current(r); old != nil {
		d.sessions.end(old.id)
	}
	ss := d.sessions.start(key, accountLabel(key), acct.PublishableKey)
	d.sessions.setCookie(w, r, ss)
	d.log.Info("dashboard: signed in", "account", ss.account)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// signinView is the sign-in form with a message.
func (d *Dashboard) signinView(msg string, isError bool) *view {
	return &view{Title: "Sign in", Flash: msg, FlashError: isError, Data: wire.FormatDurationWords(d.sessions.idle)}
}

// signedIn runs h with the request's session, or sends the browser to the
// sign-in form.
func (d *Dashboard) signedIn(h func(http.ResponseWriter, *http.Request, *session)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ss := d.sessions.current(r)
		if ss == nil {
			if r.Header.Get(liveHeader) != "" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			clearCookie(w, r)
			d.render(w, r, nil, http.StatusUnauthorized, "signin.html", d.signinView("Sign in to see this page: there is no session, or it ended.", true))
			return
		}
		if r.Method == http.MethodGet {
			// A page left open keeps its session, and its cookie, alive.
			d.sessions.setCookie(w, r, ss)
		}
		release, ok := d.work.acquire(r.Context(), ss.key)
		if !ok {
			return // the client went away while waiting
		}
		defer release()
		h(releasingWriter{w, release}, r, ss)
	})
}

func (d *Dashboard) signOut(w http.ResponseWriter, r *http.Request, ss *session) {
	d.sessions.end(ss.id)
	clearCookie(w, r)
	d.log.Info("dashboard: signed out", "account", ss.account)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
