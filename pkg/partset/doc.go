// Package partset names the parts of a configuration spread over several Secrets (ADR 20)
// in the first line of part 0, so that the config-reloader reads only a complete set of
// one generation: the operator writes the line, the reloader checks the parts it was given
// against it before it renders and reloads anything.
package partset
