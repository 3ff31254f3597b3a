package ui

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStatusHelpers(t *testing.T) {
	assert.Equal(t, "error: boom", ErrorStatus(errors.New("boom")))
}
