package main

import (
	"flag"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/ocr"
)

// ocrOpts are the OCR flags of parse and index.
type ocrOpts struct {
	on    *bool
	langs *string
}

func ocrFlags(fs *flag.FlagSet) *ocrOpts {
	return &ocrOpts{
		on:    fs.Bool("ocr", true, "read scanned pages and poor OCR text layers with tesseract (--ocr=false: never)"),
		langs: fs.String("ocr-lang", ocr.DefaultLanguages, "OCR languages, tesseract codes joined by '+' (e.g. eng+deu)"),
	}
}

func (o *ocrOpts) config() library.OCRConfig {
	return library.OCRConfig{Off: !*o.on, Languages: ocr.Langs(*o.langs)}
}
