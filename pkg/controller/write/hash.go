package write

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// HashJSON hashes a value through its JSON encoding (maps are sorted by encoding/json).
func HashJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
