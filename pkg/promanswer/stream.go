package promanswer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Stream reads one answer from r and calls field for every key of its "data" object;
// field must consume the key's value (with Elements, Skip or dec.Decode). A "data" of
// null has no keys. An answer whose status is not "success" is an error naming the
// status and Prometheus's error; every other error is "decoding the <what> answer: ...".
func Stream(r io.Reader, what string, field func(key string, dec *json.Decoder) error) error {
	fail := func(err error) error { return fmt.Errorf("decoding the %s answer: %w", what, err) }
	dec := json.NewDecoder(r)
	if err := delim(dec, '{'); err != nil {
		return fail(err)
	}
	var status, apiErr string
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return fail(err)
		}
		switch key {
		case "status":
			err = dec.Decode(&status)
		case "error":
			err = dec.Decode(&apiErr)
		case "data":
			err = data(dec, field)
		default:
			err = Skip(dec)
		}
		if err != nil {
			return fail(fmt.Errorf("%s: %w", key, err))
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return fail(err)
	}
	switch status {
	case "success":
		return nil
	case "":
		return errors.New("the " + what + " answer has no status")
	}
	return fmt.Errorf("prometheus answered %s: %s", status, apiErr)
}

// data walks the "data" object, handing each key to field.
func data(dec *json.Decoder, field func(string, *json.Decoder) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want an object, got %v", tok)
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		if err := field(key, dec); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	_, err = dec.Token() // }
	return err
}

// Elements reads an array value (null: none), calling each once per element; each must
// consume the element.
func Elements(dec *json.Decoder, each func(*json.Decoder) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("want an array, got %v", tok)
	}
	for dec.More() {
		if err := each(dec); err != nil {
			return err
		}
	}
	_, err = dec.Token() // ]
	return err
}

// Skip discards the next value, however deep.
func Skip(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}

func delim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, tok)
	}
	return nil
}

func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	k, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("want a key, got %v", tok)
	}
	return k, nil
}
