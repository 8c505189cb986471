package retail

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// Money is an amount in cents. It reads and prints as dollars with two
// decimals (54.99), so tool outputs look like tau-bench's while sums stay
// exact.
type Money int64

// String is the amount in dollars, "54.99".
func (m Money) String() string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	cents := strconv.FormatInt(int64(m%100), 10)
	if len(cents) == 1 {
		cents = "0" + cents
	}
	return sign + strconv.FormatInt(int64(m/100), 10) + "." + cents
}

// MarshalJSON writes dollars as a JSON number.
func (m Money) MarshalJSON() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalJSON reads dollars.
func (m *Money) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*m = Money(f*100 + 0.5*sign(f))
	return nil
}

func sign(f float64) float64 {
	if f < 0 {
		return -1
	}
	return 1
}

// DB is the store: users, products and orders, keyed by id. Its canonical
// JSON (Go sorts map keys) is what Hash digests.
type DB struct {
	Users    map[string]*User    `json:"users"`
	Products map[string]*Product `json:"products"`
	Orders   map[string]*Order   `json:"orders"`
}

// Name is a user's name.
type Name struct {
	First string `json:"first_name"`
	Last  string `json:"last_name"`
}

// Address is a postal address.
type Address struct {
	Address1 string `json:"address1"`
	Address2 string `json:"address2"`
	City     string `json:"city"`
	State    string `json:"state"`
	Country  string `json:"country"`
	Zip      string `json:"zip"`
}

func (a Address) String() string {
	parts := []string{a.Address1}
	if a.Address2 != "" {
		parts = append(parts, a.Address2)
	}
	parts = append(parts, a.City, a.State, a.Country, a.Zip)
	return strings.Join(parts, ", ")
}

// Payment sources.
const (
	CreditCard = "credit_card"
	PayPal     = "paypal"
	GiftCard   = "gift_card"
)

// PaymentMethod is one of a user's ways to pay.
type PaymentMethod struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Brand  string `json:"brand,omitempty"`
	Last4  string `json:"last_four,omitempty"`
	// Balance of a gift card.
	Balance *Money `json:"balance,omitempty"`
}

// describe is how a customer names the method ("my PayPal account").
func (p *PaymentMethod) describe() string {
	switch p.Source {
	case CreditCard:
		return fmt.Sprintf("my %s credit card ending in %s", p.Brand, p.Last4)
	case PayPal:
		return "my PayPal account"
	}
	return "my gift card"
}

// User is a customer's profile.
type User struct {
	ID             string                    `json:"user_id"`
	Name           Name                      `json:"name"`
	Email          string                    `json:"email"`
	Address        Address                   `json:"address"`
	PaymentMethods map[string]*PaymentMethod `json:"payment_methods"`
	Orders         []string                  `json:"orders"`
}

// Variant is one item of a product: a combination of options.
type Variant struct {
	ItemID    string            `json:"item_id"`
	Options   map[string]string `json:"options"`
	Price     Money             `json:"price"`
	Available bool              `json:"available"`
}

// Product is a product type with its variants.
type Product struct {
	ID       string              `json:"product_id"`
	Name     string              `json:"name"`
	Variants map[string]*Variant `json:"variants"`
}

// Item is one line of an order.
type Item struct {
	Name      string            `json:"name"`
	ProductID string            `json:"product_id"`
	ItemID    string            `json:"item_id"`
	Price     Money             `json:"price"`
	Options   map[string]string `json:"options"`
}

// Transaction is a payment or refund of an order.
type Transaction struct {
	Type            string `json:"transaction_type"` // payment or refund
	Amount          Money  `json:"amount"`
	PaymentMethodID string `json:"payment_method_id"`
}

// Order statuses.
const (
	Pending           = "pending"
	Processed         = "processed"
	Delivered         = "delivered"
	Cancelled         = "cancelled"
	ItemsModified     = "pending (items modified)"
	ReturnRequested   = "return requested"
	ExchangeRequested = "exchange requested"
)

// Order is one order and what happened to it.
type Order struct {
	ID             string        `json:"order_id"`
	UserID         string        `json:"user_id"`
	Address        Address       `json:"address"`
	Items          []Item        `json:"items"`
	Status         string        `json:"status"`
	PaymentHistory []Transaction `json:"payment_history"`

	CancelReason            string   `json:"cancel_reason,omitempty"`
	ReturnItems             []string `json:"return_items,omitempty"`
	ReturnPaymentMethodID   string   `json:"return_payment_method_id,omitempty"`
	ExchangeItems           []string `json:"exchange_items,omitempty"`
	ExchangeNewItems        []string `json:"exchange_new_items,omitempty"`
	ExchangePaymentMethodID string   `json:"exchange_payment_method_id,omitempty"`
	ExchangePriceDifference *Money   `json:"exchange_price_difference,omitempty"`
}

// Total is what the order's items cost.
func (o *Order) Total() Money {
	var t Money
	for _, it := range o.Items {
		t += it.Price
	}
	return t
}

// paidWith is the method of the order's first payment (the original one).
func (o *Order) paidWith() string {
	for _, t := range o.PaymentHistory {
		if t.Type == "payment" {
			return t.PaymentMethodID
		}
	}
	return ""
}

// Hash is the sha256 of the store's canonical JSON: two stores are equal
// iff their hashes are.
func (db *DB) Hash() string {
	b, err := json.Marshal(db)
	if err != nil {
		panic(fmt.Sprintf("retail: marshal store: %v", err)) // only plain data inside
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Clone deep-copies the store.
func (db *DB) Clone() *DB {
	out := &DB{Users: make(map[string]*User, len(db.Users)), Products: make(map[string]*Product, len(db.Products)),
		Orders: make(map[string]*Order, len(db.Orders))}
	for id, u := range db.Users {
		c := *u
		c.PaymentMethods = make(map[string]*PaymentMethod, len(u.PaymentMethods))
		for k, pm := range u.PaymentMethods {
			p := *pm
			if pm.Balance != nil {
				b := *pm.Balance
				p.Balance = &b
			}
			c.PaymentMethods[k] = &p
		}
		c.Orders = slices.Clone(u.Orders)
		out.Users[id] = &c
	}
	for id, p := range db.Products {
		c := *p
		c.Variants = make(map[string]*Variant, len(p.Variants))
		for k, v := range p.Variants {
			x := *v
			x.Options = maps.Clone(v.Options)
			c.Variants[k] = &x
		}
		out.Products[id] = &c
	}
	for id, o := range db.Orders {
		c := *o
		c.Items = make([]Item, len(o.Items))
		for i, it := range o.Items {
			it.Options = maps.Clone(it.Options)
			c.Items[i] = it
		}
		c.PaymentHistory = slices.Clone(o.PaymentHistory)
		c.ReturnItems = slices.Clone(o.ReturnItems)
		c.ExchangeItems = slices.Clone(o.ExchangeItems)
		c.ExchangeNewItems = slices.Clone(o.ExchangeNewItems)
		if o.ExchangePriceDifference != nil {
			d := *o.ExchangePriceDifference
			c.ExchangePriceDifference = &d
		}
		out.Orders[id] = &c
	}
	return out
}

// catalogue is the product types the store sells and their options.
var catalogue = []struct {
	name    string
	price   int // base price in dollars
	options [][]string
}{
	{"T-Shirt", 25, [][]string{{"color", "red", "blue", "black", "white"}, {"size", "S", "M", "L", "XL"}}},
	{"Running Shoes", 90, [][]string{{"color", "black", "white", "grey"}, {"size", "7", "8", "9", "10", "11"}}},
	{"Water Bottle", 20, [][]string{{"capacity", "500ml", "750ml", "1000ml"}, {"material", "plastic", "stainless steel", "glass"}}},
	{"Desk Lamp", 45, [][]string{{"color", "black", "white", "silver"}, {"brightness", "low", "medium", "high"}, {"power source", "AC adapter", "USB", "battery"}}},
	{"Mechanical Keyboard", 120, [][]string{{"switch type", "linear", "tactile", "clicky"}, {"backlight", "none", "white", "RGB"}, {"size", "full size", "80%", "60%"}}},
	{"Headphones", 150, [][]string{{"type", "over-ear", "on-ear", "in-ear"}, {"connectivity", "wired", "wireless"}, {"color", "black", "white", "blue"}}},
	{"Backpack", 60, [][]string{{"color", "black", "green", "navy"}, {"size", "small", "medium", "large"}, {"material", "nylon", "leather", "polyester"}}},
	{"Coffee Maker", 80, [][]string{{"color", "black", "stainless steel"}, {"capacity", "1 cup", "4 cups", "8 cups", "12 cups"}, {"type", "drip", "espresso", "french press"}}},
	{"Smart Watch", 200, [][]string{{"color", "black", "silver", "gold"}, {"band material", "silicone", "leather", "metal"}, {"display", "AMOLED", "LCD"}}},
	{"Yoga Mat", 35, [][]string{{"thickness", "4mm", "6mm", "8mm"}, {"material", "PVC", "TPE", "natural rubber"}, {"color", "purple", "green", "blue"}}},
	{"Office Chair", 180, [][]string{{"material", "mesh", "leather", "fabric"}, {"color", "black", "grey", "blue"}, {"armrest", "none", "fixed", "adjustable"}}},
	{"Bluetooth Speaker", 70, [][]string{{"color", "black", "red", "blue"}, {"battery life", "10 hours", "20 hours"}, {"water resistance", "yes", "no"}}},
}

var (
	firstNames = []string{"Aarav", "Amelia", "Chen", "Daiki", "Emma", "Fatima", "Harper", "Isabella", "Juan", "Liam",
		"Mei", "Mohamed", "Noah", "Olivia", "Omar", "Priya", "Raj", "Sofia", "Yusuf", "Zoe"}
	lastNames = []string{"Ahmed", "Brown", "Garcia", "Ito", "Johnson", "Kim", "Lopez", "Martin", "Nguyen", "Patel",
		"Rossi", "Silva", "Smith", "Taylor", "Wilson"}
	streets = []string{"Main Street", "Oak Avenue", "Maple Drive", "Cedar Lane", "Elm Street", "Pine Road",
		"Lakeview Drive", "Hillcrest Road", "Park Avenue", "River Road"}
	cities = []struct{ city, state, zip string }{
		{"Austin", "TX", "787"}, {"Seattle", "WA", "981"}, {"Denver", "CO", "802"}, {"Chicago", "IL", "606"},
		{"Boston", "MA", "021"}, {"Phoenix", "AZ", "850"}, {"Portland", "OR", "972"}, {"Atlanta", "GA", "303"},
	}
	brands = []string{"visa", "mastercard", "amex"}
)

// StoreOptions size the generated store.
type StoreOptions struct {
	Users int
	Seed  uint64
}

// Generate builds the store deterministically from its seed.
func Generate(o StoreOptions) *DB {
	rng := envs.NewRand(o.Seed ^ 0x7e7a11)
	db := &DB{Users: map[string]*User{}, Products: map[string]*Product{}, Orders: map[string]*Order{}}
	ids := idSource{rng: rng, used: map[string]bool{}}
	var products []*Product
	for _, c := range catalogue {
		p := &Product{ID: ids.digits("", 10), Name: c.name, Variants: map[string]*Variant{}}
		combos := combinations(c.options)
		rng.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
		n := min(len(combos), 5+rng.IntN(4))
		for _, opts := range combos[:n] {
			cents := c.price*100 + rng.IntN(c.price*60) - c.price*30 + 99 - 100
			v := &Variant{ItemID: ids.digits("", 10), Options: opts, Price: Money(max(cents, 199)), Available: rng.IntN(5) > 0}
			p.Variants[v.ItemID] = v
		}
		db.Products[p.ID] = p
		products = append(products, p)
	}
	for range o.Users {
		u := newUser(rng, &ids, db)
		db.Users[u.ID] = u
		for range 2 + rng.IntN(4) {
			ord := newOrder(rng, &ids, u, products)
			db.Orders[ord.ID] = ord
			u.Orders = append(u.Orders, ord.ID)
		}
	}
	return db
}

func newUser(rng *rand.Rand, ids *idSource, db *DB) *User {
	for {
		first, last := firstNames[rng.IntN(len(firstNames))], lastNames[rng.IntN(len(lastNames))]
		c := cities[rng.IntN(len(cities))]
		addr := Address{
			Address1: fmt.Sprintf("%d %s", 10+rng.IntN(990), streets[rng.IntN(len(streets))]),
			City:     c.city, State: c.state, Country: "USA", Zip: fmt.Sprintf("%s%02d", c.zip, rng.IntN(100)),
		}
		if rng.IntN(3) == 0 {
			addr.Address2 = fmt.Sprintf("Suite %d", 100+rng.IntN(900))
		}
		clash := false
		for _, u := range db.Users {
			clash = clash || (u.Name.First == first && u.Name.Last == last && u.Address.Zip == addr.Zip)
		}
		if clash {
			continue
		}
		id := strings.ToLower(first+"_"+last+"_") + ids.digits("", 4)
		u := &User{ID: id, Name: Name{first, last}, Address: addr, PaymentMethods: map[string]*PaymentMethod{},
			Email: strings.ToLower(first+"."+last) + ids.digits("", 4) + "@example.com"}
		sources := []string{CreditCard, PayPal, GiftCard}
		rng.Shuffle(len(sources), func(i, j int) { sources[i], sources[j] = sources[j], sources[i] })
		for _, src := range sources[:1+rng.IntN(3)] {
			pm := &PaymentMethod{ID: ids.digits(src+"_", 7), Source: src}
			switch src {
			case CreditCard:
				pm.Brand, pm.Last4 = brands[rng.IntN(len(brands))], fmt.Sprintf("%04d", rng.IntN(10000))
			case GiftCard:
				b := Money(rng.IntN(300) * 100)
				pm.Balance = &b
			}
			u.PaymentMethods[pm.ID] = pm
		}
		return u
	}
}

func newOrder(rng *rand.Rand, ids *idSource, u *User, products []*Product) *Order {
	o := &Order{ID: ids.digits("#W", 7), UserID: u.ID, Address: u.Address}
	for range 1 + rng.IntN(4) {
		p := products[rng.IntN(len(products))]
		keys := sortedKeys(p.Variants)
		v := p.Variants[keys[rng.IntN(len(keys))]]
		o.Items = append(o.Items, Item{Name: p.Name, ProductID: p.ID, ItemID: v.ItemID, Price: v.Price, Options: v.Options})
	}
	statuses := []string{Pending, Pending, Pending, Processed, Delivered, Delivered, Delivered, Cancelled}
	o.Status = statuses[rng.IntN(len(statuses))]
	methods := sortedKeys(u.PaymentMethods)
	pm := methods[rng.IntN(len(methods))]
	o.PaymentHistory = []Transaction{{Type: "payment", Amount: o.Total(), PaymentMethodID: pm}}
	if o.Status == Cancelled {
		o.CancelReason = "no longer needed"
		o.PaymentHistory = append(o.PaymentHistory, Transaction{Type: "refund", Amount: o.Total(), PaymentMethodID: pm})
	}
	return o
}

// combinations lists every choice of one value per option.
func combinations(options [][]string) []map[string]string {
	out := []map[string]string{{}}
	for _, opt := range options {
		var next []map[string]string
		for _, partial := range out {
			for _, v := range opt[1:] {
				m := make(map[string]string, len(partial)+1)
				for k, x := range partial {
					m[k] = x
				}
				m[opt[0]] = v
				next = append(next, m)
			}
		}
		out = next
	}
	return out
}

type idSource struct {
	rng  *rand.Rand
	used map[string]bool
}

func (s *idSource) digits(prefix string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + s.rng.IntN(10))
		}
		if b[0] == '0' {
			b[0] = '1'
		}
		id := prefix + string(b)
		if !s.used[id] {
			s.used[id] = true
			return id
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// describeOptions renders options in a fixed order: "color: blue, size: L".
func describeOptions(opts map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(opts) {
		parts = append(parts, k+": "+opts[k])
	}
	return strings.Join(parts, ", ")
}
