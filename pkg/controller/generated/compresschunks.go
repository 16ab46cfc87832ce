package generated

// chunkSize is how many bytes of configuration each gzip member of CompressFrom holds.
const chunkSize = 1 << 20

// member is one gzip member of a chunked compression: the gzipped configuration bytes up
// to end (from the previous member's end).
type member struct {
	end int
	gz  []byte
}

// CompressFrom is Compress for a configuration of which the first same bytes are those of
// the configuration last given, hashed prevHash (what promcfg.Result's Same and PrevHash
// say). It gzips the configuration as independent members of chunkSize bytes, one gzip
// stream after another, which gzip readers (Go's, gunzip, the config-reloaders) read as
// one file, and reuses the members wholly inside the unchanged prefix: a change to one
// monitor of 20,000 recompresses what follows it, half of the 29 MB on average, not all
// of it. A result too big for a Secret at the fast level is redone as Compress does.
func (c *Compressor) CompressFrom(hash string, config []byte, prevHash string, same int) ([]byte, error) {
	if c.hash == hash && c.out != nil {
		return c.out, nil
	}
	keep := 0
	if c.membersOf == prevHash && prevHash != "" {
		for keep < len(c.members) && c.members[keep].end <= same && c.members[keep].end <= len(config) {
			keep++
		}
	}
	members := c.members[:keep]
	start := 0
	if keep > 0 {
		start = members[keep-1].end
	}
	for start < len(config) || start == 0 && len(members) == 0 {
		end := min((start/chunkSize+1)*chunkSize, len(config))
		gz, err := c.gzip(config[start:end], 3)
		if err != nil {
			return nil, err
		}
		members = append(members, member{end: end, gz: gz})
		start = end
	}
	size := 0
	for _, m := range members {
		size += len(m.gz)
	}
	if size > MaxSecretData && size <= MaxSecretData*3/2 {
		// Might fit at the best level, as one stream.
		c.members, c.membersOf = nil, ""
		return c.compress(hash, config, true)
	}
	out := make([]byte, 0, size)
	for _, m := range members {
		out = append(out, m.gz...)
	}
	c.members, c.membersOf = members, hash
	c.hash, c.out = hash, out
	return out, nil
}
