package monitorcost

// Round rounds n to two significant digits (1,234 is 1,200; 56 stays 56; 1,250 is
// 1,300): a figure in a status changes when it moves by a few percent, not on every
// scrape.
func Round(n int64) int64 {
	if n < 0 {
		return -Round(-n)
	}
	p := int64(1)
	for n/p >= 100 {
		p *= 10
	}
	return (n + p/2) / p * p
}

// Rounded is c with its sample and series figures rounded (Round); the target counts
// stay exact.
func (c Cost) Rounded() Cost {
	c.Samples, c.SeriesAdded, c.MaxTargetSamples = Round(c.Samples), Round(c.SeriesAdded), Round(c.MaxTargetSamples)
	return c
}
