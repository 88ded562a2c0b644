//go:build js && wasm

package playground

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"syscall/js"
)

const svgNS = "http://www.w3.org/2000/svg"

// UI is the part of the page drawn from Go: the time controls and the
// cluster picture. The terminal and the editor are JavaScript (xterm.js,
// CodeMirror) and reach the engine through window.kubeplay.
type UI struct {
	h    *Host
	text Text

	play  node
	speed node
	clock node
	// shown is the clock's text as last drawn: a redraw that would not
	// change it leaves the page alone (at 1x the text changes once a
	// second, the redraws come up to seven times as often).
	shown   string
	picture node

	pic      Picture
	drawn    bool
	width    int
	lastDraw time.Time
	// svg is the picture on the page: the tree it was drawn from and its
	// DOM nodes, so a redraw changes only what changed.
	svg *drawnEl
	// paint keeps the pods' rows and chips from one redraw to the next.
	paint painter
	// drawing is held for a whole redraw: one may pause midway (handing
	// the thread back), and the page's first one runs without the engine
	// held, so a redraw asked for meanwhile (a resize) waits for it.
	drawing sync.Mutex
}

// NewUI builds the time controls into #timebar and the picture into
// #picture, and hooks itself to the host's changes.
func NewUI(h *Host, lang string) *UI {
	u := &UI{h: h, text: TextFor(lang)}
	u.paint.pause = h.pause
	if bar := byID("timebar"); bar.ok() {
		u.buildTimebar(bar)
	}
	u.picture = byID("picture")
	if lg := byID("legend"); lg.ok() {
		lg.attr("aria-label", "legend")
		for _, c := range LegendOrder {
			key := create("span").attr("class", "key")
			key.append(create("span").attr("class", "sw "+c).attr("aria-hidden", "true").text(Icon(c)))
			key.append(create("span").text(u.text.Legend[c]))
			lg.append(key)
		}
	}
	if t := byID("picture-title"); t.ok() {
		t.text(u.text.Cluster)
	}
	h.OnChange = u.refresh
	// Redraw at the new width when the pane is resized.
	if u.picture.ok() {
		obs := js.Global().Get("ResizeObserver")
		if obs.Truthy() {
			cb := js.FuncOf(func(js.Value, []js.Value) any {
				go func() {
					if w := u.picture.v.Get("clientWidth").Int(); w != u.width && w > 0 {
						u.h.Do(func() { u.refresh(true) })
					}
				}()
				return nil
			})
			obs.New(cb).Call("observe", u.picture.v)
		}
	}
	return u
}

func (u *UI) buildTimebar(bar node) {
	u.play = create("button").attr("type", "button").attr("id", "play")
	u.play.on("click", func() {
		playing, _ := u.h.Clock()
		u.h.SetPlaying(!playing)
		u.showPlaying()
	})
	bar.append(u.play)

	bar.append(create("label").attr("for", "speed").attr("class", "sr-only").text(u.text.Speed))
	u.speed = create("select").attr("id", "speed").attr("title", u.text.Speed)
	for _, s := range Speeds {
		v := strconv.FormatFloat(s, 'f', -1, 64)
		u.speed.append(create("option").attr("value", v).text(v + "×"))
	}
	u.speed.on("change", func() {
		if v, err := strconv.ParseFloat(u.speed.v.Get("value").String(), 64); err == nil {
			u.h.SetSpeed(v)
		}
	})
	bar.append(u.speed)

	step := create("button").attr("type", "button").attr("id", "step").text(u.text.Step).
		attr("aria-label", u.text.StepLabel).attr("title", u.text.StepLabel)
	step.on("click", func() {
		go u.h.Advance(10 * time.Second)
	})
	bar.append(step)

	u.clock = create("output").attr("id", "clock").attr("aria-label", u.text.Clock).attr("title", u.text.Clock)
	u.shown = ""
	bar.append(u.clock)
	u.showPlaying()
	u.showClock()
}

func (u *UI) showPlaying() {
	if !u.play.ok() {
		return
	}
	playing, _ := u.h.Clock()
	// The button says what it does: Pause while the clock runs.
	icon := createNS(svgNS, "svg").attr("viewBox", "0 0 10 10").attr("aria-hidden", "true")
	word, state := u.text.Pause, "playing"
	if playing {
		icon.append(createNS(svgNS, "rect").attr("x", "1.5").attr("y", "1").attr("width", "2.5").attr("height", "8"))
		icon.append(createNS(svgNS, "rect").attr("x", "6").attr("y", "1").attr("width", "2.5").attr("height", "8"))
	} else {
		word, state = u.text.Play, "paused"
		icon.append(createNS(svgNS, "polygon").attr("points", "2,1 9,5 2,9"))
	}
	u.play.clear()
	u.play.append(icon).append(create("span").text(word))
	u.play.attr("title", word).attr("data-state", state)
}

func (u *UI) showClock() {
	if !u.clock.ok() {
		return
	}
	now := u.h.Now()
	el := now.Sub(u.h.Started()).Round(time.Second)
	text, at := fmt.Sprintf("%s · +%s", now.Format("15:04:05"), el), now.Format(time.RFC3339)
	if text+at == u.shown {
		return
	}
	u.shown = text + at
	u.clock.text(text).attr("data-time", at)
}

// refresh redraws the clock, and the picture when it changed. The host
// calls it with the engine held.
func (u *UI) refresh(force bool) {
	u.drawing.Lock()
	defer u.drawing.Unlock()
	wall := time.Now()
	if !force && wall.Sub(u.lastDraw) < 150*time.Millisecond {
		return
	}
	u.lastDraw = wall
	u.showClock()
	if !u.picture.ok() {
		return
	}
	width := u.picture.v.Get("clientWidth").Int()
	if width <= 0 {
		width = 560
	}
	if !u.h.TakeDirty() && u.drawn && width == u.width {
		return // no write since the last picture
	}
	start := now()
	pic := u.paint.snapshot(u.h.C)
	if u.drawn && pic.Equal(u.pic) && width == u.width {
		return
	}
	tree := u.paint.svg(pic, u.text.Labels(), width)
	if u.drawn {
		pic.MarkChanges(u.pic, tree)
	}
	u.pic, u.drawn, u.width = pic, true, width
	// A redraw of hundreds of chips may hand the thread back between two
	// of them (the picture is then briefly half new).
	if u.svg == nil {
		u.svg = build(tree, u.h.pause)
		u.picture.clear()
		u.picture.append(node{u.svg.node})
	} else {
		u.svg.patch(tree, u.h.pause)
	}
	u.picture.attr("data-rendered", strconv.FormatInt(u.h.Now().Unix(), 10))
	measure("kp:picture", start)
}

var performance = js.Global().Get("performance")

func now() float64 { return performance.Call("now").Float() }

// measure records a stretch of the page's work on its performance
// timeline (the browser's profiler and the browser suite read it).
func measure(name string, start float64) {
	opts := js.Global().Get("Object").New()
	opts.Set("start", start)
	opts.Set("end", now())
	performance.Call("measure", name, opts)
}

// node is a DOM node. The page uses a handful of DOM calls, so they are
// written here on syscall/js: honnef.co/go/js/dom/v2 added 16.6 MB to the
// wasm (1.2 MB gzipped) when text/template kept every exported method of
// every type alive.
type node struct{ v js.Value }

var document = js.Global().Get("document")

func byID(id string) node { return node{document.Call("getElementById", id)} }

func create(tag string) node { return node{document.Call("createElement", tag)} }

func createNS(ns, tag string) node { return node{document.Call("createElementNS", ns, tag)} }

func (n node) ok() bool { return n.v.Truthy() }

func (n node) attr(name, value string) node {
	n.v.Call("setAttribute", name, value)
	return n
}

func (n node) text(s string) node {
	n.v.Set("textContent", s)
	return n
}

func (n node) append(k node) node {
	n.v.Call("appendChild", k.v)
	return n
}

func (n node) clear() {
	for c := n.v.Get("firstChild"); c.Truthy(); c = n.v.Get("firstChild") {
		n.v.Call("removeChild", c)
	}
}

// on adds an event listener; the handler runs on its own goroutine, so it
// may wait for the engine.
func (n node) on(event string, f func()) {
	n.v.Call("addEventListener", event, js.FuncOf(func(js.Value, []js.Value) any {
		go f()
		return nil
	}))
}
