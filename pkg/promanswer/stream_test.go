package promanswer

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStream: the elements of one data field are read one at a time, other keys are
// skipped however deep, and every malformed or failed answer is an error that says so.
func TestStream(t *testing.T) {
	read := func(answer string) ([]int, error) {
		var got []int
		err := Stream(strings.NewReader(answer), "test", func(key string, dec *json.Decoder) error {
			if key != "items" {
				return Skip(dec)
			}
			return Elements(dec, func(dec *json.Decoder) error {
				var v int
				if err := dec.Decode(&v); err != nil {
					return err
				}
				got = append(got, v)
				return nil
			})
		})
		return got, err
	}
	got, err := read(`{"status":"success","data":{"other":{"a":[1,{"b":2}]},"items":[1,2,3]},"warnings":["w"]}`)
	if err != nil || len(got) != 3 || got[2] != 3 {
		t.Fatalf("got %v, %v", got, err)
	}
	if got, err := read(`{"status":"success","data":{"items":null}}`); err != nil || len(got) != 0 {
		t.Fatalf("null items: %v, %v", got, err)
	}
	if _, err := read(`{"status":"success","data":null}`); err != nil {
		t.Fatalf("null data: %v", err)
	}
	for answer, want := range map[string]string{
		`{"status":"error","errorType":"bad_data","error":"invalid"}`: "prometheus answered error: invalid",
		`{"data":{"items":[]}}`:          "the test answer has no status",
		`[]`:                             `decoding the test answer: want "{", got [`,
		`{"status":"success","data":[]}`: "decoding the test answer: data: want an object, got [",
		`{"status":"success","data":{"items":{}}}`:    "decoding the test answer: data: items: want an array, got {",
		`{"status":"success","data":{"items":["x"]}}`: "decoding the test answer: data: items: json: cannot unmarshal string into Go value of type int",
		`{"status":"success","data":{"items":[1,2]}`:  "decoding the test answer: EOF",
		``: "decoding the test answer: EOF",
	} {
		if _, err := read(answer); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", answer, err, want)
		}
	}
}
