// Package pushlabel is the one rule for the Pushgateway grouping labels
// (job and instance) that ringscope pushes: the page checks a label before
// it pushes, and the server's relay checks it again before it forwards the
// push, so the relay reaches no other path of the gateway.
package pushlabel
