// Package listdecode decodes the items of a large JSON list response while it arrives,
// on every core, instead of reading the whole body first and decoding it on one.
//
// A typed informer's first list (every ServiceMonitor of the cluster: 60 MB of JSON at
// 20,000) is a single response the API server writes item by item. client-go reads it
// to the end and then decodes it in one pass, so the API server's encoding and the
// operator's decoding follow each other. Mark a list request's context, wrap the REST
// configuration's transport with Wrap, and the transport hands client-go the list without
// its items, decoded as they came by a pool of workers; Items returns them in order.
package listdecode
