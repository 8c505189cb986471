package mathenv

// The generator of the Geometry3K sample (samples/geometry3k.parquet): seeded
// problems over figures drawn with image/png, written as Hugging Face stores
// an Image column (a list of {bytes, path} structs). TestVisualSample checks
// the committed file is what this writes (rewrite it with -update).

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"

	"github.com/parquet-go/parquet-go"

	"github.com/quarry-rl/quarry/envs"
)

// hfImage is one element of a Hugging Face Image column.
type hfImage struct {
	Bytes []byte  `parquet:"bytes"`
	Path  *string `parquet:"path,optional"`
}

// visualRow is one row in GEM's Geometry3K columns.
type visualRow struct {
	Images  []hfImage `parquet:"images,list"`
	Problem string    `parquet:"problem"`
	Answer  string    `parquet:"answer"`
}

// visualRows is the sample's size.
const visualRows = 12

// visualItems generates the sample's rows: a triangle's third angle, a
// rectangle's area, a circle's circumference, in turn, each drawn to scale.
func visualItems() []visualRow {
	rng := rand.New(rand.NewPCG(3, 3000))
	rows := make([]visualRow, visualRows)
	for i := range rows {
		var img *image.Gray
		var problem, answer string
		switch i % 3 {
		case 0:
			a, b := 30+rng.IntN(60), 30+rng.IntN(60)
			img = triangle(float64(a), float64(b))
			problem = fmt.Sprintf("<image>In the triangle shown, the angles at the base measure %d° and %d°. Find x, the angle at the top, in degrees.", a, b)
			answer = fmt.Sprint(180 - a - b)
		case 1:
			w, h := 3+rng.IntN(9), 2+rng.IntN(6)
			img = rectangle(w, h)
			problem = fmt.Sprintf("<image>The rectangle shown is %d units wide and %d units tall. Find its area.", w, h)
			answer = fmt.Sprint(w * h)
		case 2:
			r := 2 + rng.IntN(10)
			img = circle(r)
			problem = fmt.Sprintf("<image>The circle shown has radius %d. Find its circumference.", r)
			answer = fmt.Sprintf(`%d\pi`, 2*r)
		}
		rows[i] = visualRow{Images: []hfImage{{Bytes: encodePNG(img)}}, Problem: problem + instruction, Answer: answer}
	}
	return rows
}

// visualSample is the sample file's bytes.
func visualSample() ([]byte, error) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[visualRow](&buf)
	if _, err := w.Write(visualItems()); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

const figure = 96 // figure side, pixels

func canvas() *image.Gray {
	img := image.NewGray(image.Rect(0, 0, figure, figure))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	return img
}

// line draws from (x0, y0) to (x1, y1) in black.
func line(img *image.Gray, x0, y0, x1, y1 float64) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for s := 0; s <= n; s++ {
		t := float64(s) / float64(n)
		img.SetGray(int(math.Round(x0+t*(x1-x0))), int(math.Round(y0+t*(y1-y0))), color.Gray{})
	}
}

// triangle draws a triangle with base angles a and b degrees.
func triangle(a, b float64) *image.Gray {
	img := canvas()
	ra, rb := a*math.Pi/180, b*math.Pi/180
	// Apex over a unit base: x = tan b / (tan a + tan b), y = x tan a.
	x := math.Tan(rb) / (math.Tan(ra) + math.Tan(rb))
	y := x * math.Tan(ra)
	scale := 80 / math.Max(1, y)
	x0, y0 := 8.0, 88.0
	ax, ay := x0+x*scale, y0-y*scale
	line(img, x0, y0, x0+scale, y0)
	line(img, x0, y0, ax, ay)
	line(img, x0+scale, y0, ax, ay)
	return img
}

// rectangle draws a w×h rectangle to scale.
func rectangle(w, h int) *image.Gray {
	img := canvas()
	u := 80 / float64(max(w, h))
	x1, y1 := 8+u*float64(w), 8+u*float64(h)
	line(img, 8, 8, x1, 8)
	line(img, x1, 8, x1, y1)
	line(img, x1, y1, 8, y1)
	line(img, 8, y1, 8, 8)
	return img
}

// circle draws a circle and one radius.
func circle(r int) *image.Gray {
	img := canvas()
	c, rad := 48.0, 8+3.4*float64(r)
	for s := 0; s < 720; s++ {
		t := float64(s) * math.Pi / 360
		img.SetGray(int(math.Round(c+rad*math.Cos(t))), int(math.Round(c+rad*math.Sin(t))), color.Gray{})
	}
	line(img, c, c, c+rad, c)
	return img
}

func encodePNG(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // an in-memory image always encodes
	}
	return buf.Bytes()
}

// visualImage is row i's image as the env shows it.
func visualImage(i int) envs.Image {
	return envs.Image{MIME: "image/png", Data: visualItems()[i].Images[0].Bytes}
}
