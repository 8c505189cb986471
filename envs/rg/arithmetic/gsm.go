package arithmetic

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// GSMSymbolicOptions are reasoning-gym's GSMSymbolicDatasetConfig:
// difficulty scales the templates' number ranges, and reasoning-gym accepts
// only 1.0.
type GSMSymbolicOptions struct {
	Difficulty float64 `json:"difficulty" range:"1,1"`
}

// gsmRand is Python's random API as the templates use it.
type gsmRand struct{ rng *rand.Rand }

// choice is random.choice.
func (g gsmRand) choice(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

// choiceInt is random.choice over numbers.
func (g gsmRand) choiceInt(xs ...int) int { return xs[g.rng.IntN(len(xs))] }

// randint is random.randint: lo to hi inclusive.
func (g gsmRand) randint(lo, hi int) int { return rg.Between(g.rng, lo, hi) }

// randrange is random.randrange(lo, hi, step): lo, lo+step, … below hi.
func (g gsmRand) randrange(lo, hi, step int) int { return lo + step*g.rng.IntN((hi-lo+step-1)/step) }

// sample is random.sample(xs, k): k distinct entries in random order.
func (g gsmRand) sample(k int, xs ...string) []string {
	p := g.rng.Perm(len(xs))
	out := make([]string, k)
	for i := range out {
		out[i] = xs[p[i]]
	}
	return out
}

// A gsmTemplate is one of reasoning-gym's generate_<n> functions at
// difficulty 1.0: it draws the variables as reasoning-gym does and returns
// the question and the answer's value.
type gsmTemplate func(g gsmRand) (question string, answer float64)

// gsmTemplates are reasoning-gym's templates by index (the n of
// generate_<n>): all 85 of its tasks_ok. Its tasks_need_fix (32, 35, 37,
// 61, 63, 65, 74, 76, 77, 79, 86, 87, 90, 97, 98) are left out, as
// reasoning-gym leaves them out of its draw.
var gsmTemplates = map[int]gsmTemplate{
	0: func(g gsmRand) (string, float64) {
		name := g.choice("Emily", "Sarah", "Emma", "Sophia", "Olivia", "Ava", "Isabella", "Mia")
		food := g.choice("shrimp", "onion", "carrot", "mushroom", "clam")
		peel, batch, per := g.randint(4, 15), g.randrange(20, 50, 5), g.randint(5, 20)
		total := peel * batch / gcd(peel, batch) * g.randint(1, 4)
		return fmt.Sprintf("%s can peel %d %ss a minute and saute %d %ss in %d minutes. How long will it take her to peel and saute %d %ss?",
			name, peel, food, batch, food, per, total, food), float64(total/peel + total/batch*per)
	},
	1: func(g gsmRand) (string, float64) {
		name := g.choice("Sophie", "Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia")
		family := g.choice("nephew", "cousin", "brother")
		blocks, animals, rings := g.randint(70, 75), g.randint(35, 50), g.randint(20, 35)
		balls := g.randint(20, 100)
		total := blocks + animals + rings + balls
		return fmt.Sprintf("When %s watches her %s, she gets out a variety of toys for him. The bag of building blocks has %d blocks in it. The bin of stuffed animals has %d stuffed animals inside. The tower of stacking rings has %d multicolored rings on it. %s recently bought a tube of bouncy balls, bringing her total number of toys for her %s up to %d. How many bouncy balls came in the tube?",
			name, family, blocks, animals, rings, name, family, total), float64(balls)
	},
	2: func(g gsmRand) (string, float64) {
		teacher := g.choice("Ms. Johnson", "Mr. Smith", "Dr. Lee", "Mrs. Garcia")
		group1 := g.choice("soccer players", "basketball players", "volleyball players", "swimmers")
		groups := g.sample(2, "dancers", "choir members", "debate team members", "robotics club members")
		event := g.choice("competition", "tournament", "performance", "meet")
		total := 100 // reasoning-gym's randint(1, min(int(1.5 × difficulty), 2)) hundred
		p1 := g.choiceInt(20, 40, 60, 80)
		remaining := total - total*p1/100
		step := 100 / remaining
		p2 := 20 + step*g.rng.IntN((90-20)/step+1)
		return fmt.Sprintf("In %s's class of %d students, %d%% of the class are %s. Out of the remaining class, %d%% of the students are %s or part of %s. These 3 groups of students will need to leave early today to travel to an away %s. How many students are leaving early?",
			teacher, total, p1, group1, p2, groups[0], groups[1], event), float64(total*p1/100 + remaining*p2/100)
	},
	3: func(g gsmRand) (string, float64) {
		name := g.choice("Mike", "John", "David", "James", "Robert", "William", "Richard")
		pals := g.randint(5, 15)
		lost := g.randint(1, pals-1)
		letters, pages := g.randint(2, 5), g.randint(5, 12)
		mult := (pals - lost) * letters * pages
		var valid []int
		for m := 4; m <= 15; m++ {
			if mult*m%60 == 0 {
				valid = append(valid, m)
			}
		}
		minutes := 4
		if len(valid) == 0 {
			// reasoning-gym's fallback: pages per letter raised to fill whole
			// hours at 4 minutes a page.
			pages = (mult*minutes + 59) / 60 * 60 / (mult / pages)
		} else {
			minutes = valid[g.rng.IntN(len(valid))]
		}
		return fmt.Sprintf("%s was a pen pal with %d people. He stopped being penpals with %d of them. They each send %d letters a week that are %d pages long. He responds in kind. He can write a page every %d minutes. How many hours does he spend writing a week?",
			name, pals, lost, letters, pages, minutes), float64((pals - lost) * letters * pages * minutes / 60)
	},
	4: func(g gsmRand) (string, float64) {
		name := g.choice("Mary", "Sarah", "Emma", "Elizabeth", "Catherine")
		items := g.choice("sprinkles", "frosting", "icing", "chocolate chips")
		food := g.choice("cupcake", "cookie", "brownie", "muffin")
		location := g.choice("pantry", "cupboard", "kitchen cabinet", "storage room")
		container := g.choice("pan", "tray", "baking sheet", "rack")
		perJar := g.randint(6, 20)
		perPan := min(perJar*g.randint(1, max(1, 24/perJar)), 24)
		jars := g.randint(3, 15)
		return fmt.Sprintf("%s has %d jars of %s in her %s. Each jar of %s can decorate %d %ss. %s wants to bake enough %ss to use up all of her %s. If each %s holds %d %ss, how many %ss worth of %ss should she bake?",
			name, jars, items, location, items, perJar, food, name, food, items, container, perPan, food, container, food), float64(jars * perJar / perPan)
	},
	5: func(g gsmRand) (string, float64) {
		names := g.sample(2, "Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte", "Carol", "Jennifer")
		city := g.choice("Los Angeles", "New York", "Chicago", "Houston", "Phoenix")
		celeb := g.choice("movie stars", "athletes", "musicians", "politicians", "authors")
		vacation := g.choice("winter break", "spring break", "summer break", "fall break")
		n1, n2 := g.randint(3, 8), g.randint(2, 5)
		s1, s2 := g.randint(15, 40), g.randint(30, 60)
		goal := g.randrange(90, 150, 5)
		for s1+s2 >= goal {
			s1, s2 = g.randint(15, 40), g.randint(30, 60)
		}
		a, b := names[0], names[1]
		return fmt.Sprintf("%s and %s are sisters from %s who love collecting signatures from %s. During their %s from school, the sisters spend every afternoon collecting signatures. After %d weeks, %s and %s compare their autograph books, counting up the number of signatures each sister has collected. %s has %d signatures in her book, and %s has %d. The sisters have %d more weeks of %s, and they decide they want to reach %d signatures between them by the end of the summer. How many signatures do the sisters need to collect to reach their goal?",
			a, b, city, celeb, vacation, n1, a, b, a, s1, b, s2, n2, vacation, goal), float64(goal - s1 - s2)
	},
	6: func(g gsmRand) (string, float64) {
		place := g.choice("park", "yard", "field", "playground", "garden")
		mult := g.choiceInt(2, 3, 4)
		girls := g.randint(5, 50)
		for girls*(mult+1) > 200 {
			girls = g.randint(5, 50)
		}
		return fmt.Sprintf("There are %d girls in the %s. If there are %d times the number of boys in the %s, how many kids are in the %s?",
			girls, place, mult, place, place), float64(girls + girls*mult)
	},
	7: func(g gsmRand) (string, float64) {
		name := g.choice("Mary", "Emma", "Sophia", "Isabella", "Olivia", "Ava", "Mia")
		received, perLedge, ledges, give := g.randint(20, 50), g.randint(7, 13), g.randint(50, 70), g.randint(3, 8)
		for ledges*perLedge+received-ledges*give <= 0 {
			perLedge, give = g.randint(7, 13), g.randint(3, 8)
		}
		return fmt.Sprintf("%s is an avid gardener. Yesterday, she received %d new potted plants from her favorite plant nursery. She already has %d potted plants on each of the %d window ledges of her large country home. Feeling generous, she has decided that she will give %d potted plant from each ledge to friends and family tomorrow. How many potted plants will %s remain with?",
			name, received, perLedge, ledges, give, name), float64(perLedge*ledges + received - ledges*give)
	},
	8: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte")
		drink := g.choice("coffee", "tea")
		sugar, water := g.randint(25, 201), g.randint(5, 101)
		total := (sugar + water) * g.randint(1, 10)
		return fmt.Sprintf("%s makes %s using teaspoons of sugar and cups of water in the ratio of %d:%d. If she used a total of %d teaspoons of sugar and cups of water, calculate the number of teaspoonfuls of sugar she used.",
			name, drink, sugar, water, total), float64(sugar * total / (sugar + water))
	},
	9: func(g gsmRand) (string, float64) {
		name := g.choice("Craig", "John", "Michael", "David", "James", "Robert", "William")
		item1 := g.choice("toy car", "action figure", "coloring book", "puzzle", "board game")
		item2 := g.choice("sticker", "candy bar", "trading card", "pencil", "eraser")
		cur := g.choice("$", "€", "£")
		bill := g.choiceInt(5, 10, 20, 50, 100)
		bills := max(2, g.randint(1, 10))
		money := bills * bill
		price := max(1, min(min(10, money/8), money/6)) // both items' price
		n1 := g.randint(2, max(3, min(15, money/2/price)))
		rest := money - n1*price
		n2 := g.randint(2, max(3, min(10, rest/price)))
		return fmt.Sprintf("%s has %d %s%d bills. He buys %d %ss for %s%d each. He also buys %d packs of %ss for %s%d each. How much money does he have left?",
			name, bills, cur, bill, n1, item1, cur, price, n2, item2, cur, price), float64(money - n1*price - n2*price)
	},
	10: func(g gsmRand) (string, float64) {
		name1 := g.choice("James", "John", "Robert", "Michael", "William", "David", "Richard")
		name2 := g.choice("Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan")
		relation := g.choice("sister", "cousin")
		age, years, mult := g.randint(8, 25), g.randint(2, 10), g.randint(2, 5)
		for age*mult-years <= 0 {
			age, years, mult = g.randint(8, 25), g.randint(2, 10), g.randint(2, 5)
		}
		return fmt.Sprintf("%s is %d years old. In %d years his %s %s will be %d times as old as %s is now. How old is %s right now?",
			name1, age, years, relation, name2, mult, name1, name2), float64(age*mult - years)
	},
	11: func(g gsmRand) (string, float64) {
		name := g.choice("Allan", "John", "Michael", "David", "James", "Robert", "William")
		f := g.sample(2, "corn", "apple", "banana", "orange", "pear", "grape", "fig", "persimmon", "plum", "kiwi")
		mult := g.randint(2, 4)
		n, m := g.randint(20, 100), g.randint(30, 100)
		k := g.randint(10, min(m, 50))
		return fmt.Sprintf("At %s's house, there is %d times as much %s as %s. He has a total of %d %s in his house. At the store, %s bought %d %s. He also bought some %s, but he bought %d fewer %s than the %d %s he just bought. What is the combined total of %s and %s that %s now has in the house?",
			name, mult, f[0], f[1], n, f[1], name, m, f[1], f[0], k, f[0], m, f[1], f[0], f[1], name), float64(n*mult + n + m - k + m)
	},
	12: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte")
		games := g.sample(2, "word puzzle", "jigsaw puzzle", "chess puzzle", "riddle", "brain teaser")
		period := g.choice("weekend", "vacation", "holiday", "day off", "free time")
		t1, t2 := g.randint(5, 30), g.randint(3, 20)
		for t2 >= t1 {
			t1, t2 = g.randint(5, 30), g.randint(3, 20)
		}
		n1, n2 := g.randint(2, 10), g.randint(4, 15)
		return fmt.Sprintf("It takes %s %d minutes to finish a %s and %d minutes to finish a %s. Over the %s she solved %d %ss and %d %ss. How much time did she spend playing these games?",
			name, t1, games[0], t2, games[1], period, n1, games[0], n2, games[1]), float64(t1*n1 + t2*n2)
	},
	13: func(g gsmRand) (string, float64) {
		park := g.choice("Splash World", "Aqua Adventure", "Water Wonderland", "Neptunes Kingdom")
		unit := g.choice("yards", "meters")
		speed1 := 5 * g.randint(8, 12)
		speed2 := 5 * g.randint(speed1/5+2, 16)
		t2 := g.randint(3, 5)
		t1 := t2 + g.randint(1, 2)
		len1, len2 := speed1*t1, speed2*t2
		if len1 <= len2 {
			len1 = speed1 * (t1 + 1)
		}
		return fmt.Sprintf("The biggest waterslide at %s is %d %s long, and people slide down at %d %s/minute. The second biggest waterslide is %d %s long, but steeper, so people slide down at %d %s/minute. How much longer does it take to ride the biggest slide compared to the second biggest slide?",
			park, len1, unit, speed1, unit, len2, unit, speed2, unit), float64(len1/speed1 - len2/speed2)
	},
	14: func(g gsmRand) (string, float64) {
		name := g.choice("Peter", "John", "Michael", "David", "James", "Robert", "William")
		d := g.sample(3, "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
		mult := g.choiceInt(2, 3, 4)
		maxTotal := 14*60/mult - 1
		maxEach := min(60, maxTotal/2)
		t1 := g.randint(10, maxEach)
		t2 := g.randint(10, min(maxEach, maxTotal-t1))
		return fmt.Sprintf("On %s, %s wants to exercise for %d the amount of time he did on %s and %s combined. On %s he exercised for %d minutes. On %s he exercised for %d minutes. How many minutes does he have to exercise on %s to reach his goal?",
			d[2], name, mult, d[1], d[0], d[0], t1, d[1], t2, d[2]), float64((t1 + t2) * mult)
	},
	15: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte", "Amelia")
		sport := g.choice("swimming", "cycling", "basketball", "soccer", "volleyball")
		item1 := g.choice("t-shirt", "jersey", "sports bra")
		item2 := g.choice("shorts", "leggings", "sweatpants")
		item3 := g.choice("sneakers", "cleats", "athletic shoes")
		item4 := g.choice("socks", "headbands", "wristbands")
		cur := g.choice("$", "€", "£")
		p1, p2, p4 := g.randint(8, 25), g.randint(3, 15), g.randint(5, 15)
		discount := g.randint(1, min(5, p4))
		p3 := g.randint(30, 80) / 2 * 2
		return fmt.Sprintf("%s qualified for a spot on the %s team, so she went shopping for some athletic gear. She bought a %s for %s%d, a pair of %s %s for %s%d more than the %s cost, and a pair of %s that were originally %s%d but were on sale for half price. She had a coupon for %s%d off the package of %s%d athletic %s that she also bought. How much did she spend on athletic gear?",
			name, sport, item1, cur, p1, sport, item2, cur, p2, item1, item3, cur, p3, cur, discount, cur, p4, item4), float64(p1 + p1 + p2 + p3/2 + p4 - discount)
	},
	16: func(g gsmRand) (string, float64) {
		names := g.sample(3, "Charlie", "Dorothy", "James", "Sarah", "Michael", "Emily", "David")
		platform := g.choice("Instagram", "Twitter", "LinkedIn", "TikTok", "Snapchat")
		mult1, mult2 := g.randint(2, 5), g.randint(2, 5)
		for mult2 == mult1 {
			mult2 = g.randint(2, 5)
		}
		n := g.randint(4, 20) * mult1
		return fmt.Sprintf("%s has %d times as many %s friends as %s. %s has %d times as many friends on %s as %s. If %s has %d friends on %s, how many %s friends does %s have?",
			names[0], mult1, platform, names[1], names[2], mult2, platform, names[1], names[0], n, platform, platform, names[2]), float64(n / mult1 * mult2)
	},
	17: func(g gsmRand) (string, float64) {
		facility := g.choice("hospital", "clinic", "medical center", "care facility")
		item := g.choice("bed", "room", "ward")
		event := g.choice("flu season", "natural disaster", "major accident", "pandemic")
		den := g.choiceInt(5, 4, 3, 2) // the occupied fraction 1/den
		total := den * 100 * g.randint(5, 15)
		free := total - total/den
		period := g.randint(2, 4)
		maxDaily := free / (period * 7) / 5 * 5
		if maxDaily <= 20 {
			period = 2
			maxDaily = free / (period * 7) / 5 * 5
		}
		daily := 5 * g.randint(4, maxDaily/5)
		return fmt.Sprintf("A %s has a capacity of %d %ss with 1/%d occupied. Due to the %s, %d patients are admitted into the %s each day. Calculate the total number of unoccupied %ss in the %s after %d weeks.",
			facility, total, item, den, event, daily, facility, item, facility, period), float64(free - daily*7*period)
	},
	18: func(g gsmRand) (string, float64) {
		names := g.sample(2, "James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas", "Charles",
			"Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah", "Karen")
		game := g.choice("bowling", "darts", "archery", "basketball", "tennis")
		n1, n2 := g.randint(200, 500), g.randint(5, 50)
		for n1%2 != 0 {
			n1 = g.randint(200, 500)
		}
		return fmt.Sprintf("%s scored %d points in one game of %s. %s scored %d more than 50%% as many as %s. How many points did %s and %s have in total?",
			names[0], n1, game, names[1], n2, names[0], names[0], names[1]), float64(n1 + n1/2 + n2)
	},
	19: func(g gsmRand) (string, float64) {
		name := g.choice("Garrett", "James", "Michael", "David", "John", "Robert", "William")
		pan := g.choice("pan", "pot", "skillet")
		initial, secs := g.randrange(10, 101, 10), g.randrange(10, 31, 2)
		m2 := g.randint(2, 5)
		m3 := g.randint(m2+1, 8)
		for m3*initial%8 != 0 { // 8 always qualifies
			m3 = g.randint(m2+1, 8)
		}
		fourth := m3 * initial / 2
		return fmt.Sprintf("%s is popping popcorn for a snack. As the %s of kernels heats up, the kernels start popping faster. %d pop in the first %d seconds of cooking, then %d times that amount in the next %d seconds. The kernels increase to %d times the initial popping rate in the next %d seconds, but in the final %d seconds, the popping slows down to half the rate as the past %d seconds. After %s takes the %s off the heat, a quarter of the number of kernels that popped in the final %d seconds of cooking also pop from the residual heat. How many pieces of popcorn does %s have to eat?",
			name, pan, initial, secs, m2, secs, m3, secs, secs, secs, name, pan, secs, name), float64(initial + m2*initial + m3*initial + fourth + fourth/4)
	},
	20: func(g gsmRand) (string, float64) {
		name := g.choice("James", "John", "Robert", "Michael", "William", "David", "Richard")
		obj := g.choice("olive", "almond", "cookie", "cracker", "banana")
		surface := g.choice("plate", "table", "bowl", "tray", "basket")
		capacity, trays := g.randint(20, 51), g.randint(2, 7)
		left := g.randint(1, 20)
		return fmt.Sprintf("%s places %ss on the %s. Each %s can hold %d %ss. If he has %d %ss and %d %ss, how many %ss won't he be able to place on the %s?",
			name, obj, surface, surface, capacity, obj, capacity*trays+left, obj, trays, surface, obj, surface), float64(left)
	},
	21: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte")
		unit := g.choice("feet", "meters")
		cur := g.choice("$", "£", "€")
		space := []float64{1.25, 1.5, 1.75, 2.0}[g.rng.IntN(4)]
		plants := g.randint(80, 120)
		owned := g.randint(10, min(plants-1, 30))
		cost := g.randint(3, 8)
		g.randint(2, 8) // reasoning-gym draws a plant width it never uses
		return fmt.Sprintf("%s has a flower bed that is %s %s long. %s wants to fill her flower bed with plants. Each plant, including the space it needs around it, requires %s %s of space. %s already owns %d flowers. Each flowering plant costs %s%d at the store, how much money will %s spend at the store to fill up her flower bed?",
			name, pyFloat(float64(plants)*space), unit, name, pyFloat(space), unit, name, owned, cur, cost, name), float64((plants - owned) * cost)
	},
	22: func(g gsmRand) (string, float64) {
		name := g.choice("Mrs. Smith", "Ms. Johnson", "Dr. Patel", "Mrs. Lee")
		kind := g.choice("house", "apartment", "condo", "townhouse")
		budget := g.randrange(300000, 500000, 10000)
		price := g.randrange(250000, budget, 10000)
		broker, transfer := g.randint(3, 8), g.randint(10, 15)
		for float64(price)*(1+float64(broker)/100+float64(transfer)/100) <= float64(budget+1) {
			price = g.randrange(250000, budget, 10000)
		}
		return fmt.Sprintf("%s is looking for a %s that will not go beyond her $%s budget. She saw a property that has a selling price of $%s. On top of that, the buyer has to pay a brokerage fee which is %d%% of the selling price, and also the transfer fee that is %d%% of the selling price. How much more is the total price of the %s than %s's budget?",
			name, kind, groupThousands(strconv.Itoa(budget)), groupThousands(strconv.Itoa(price)), broker, transfer, kind, name), float64(price + price*broker/100 + price*transfer/100 - budget)
	},
	23: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Sophia", "Isabella", "Olivia", "Ava", "Mia", "Emily")
		task := g.choice("her taxes", "her financial planning", "her business accounting")
		prof := g.choice("accountant", "financial advisor", "tax consultant", "bookkeeper")
		work := g.choice("freelance", "consulting", "part-time", "contract")
		cur := g.choice("$", "€", "£")
		hours, rate, fee := g.randint(4, 14), g.randint(20, 100), g.randint(50, 200)
		for hours*rate <= fee {
			hours, rate, fee = g.randint(4, 14), g.randint(20, 100), g.randint(50, 200)
		}
		return fmt.Sprintf("%s is trying to decide whether to do %s herself or hire an %s. If she does it herself, she'll be able to do %d fewer hours of %s work, losing %s%d/hour in missed income. The %s charges %s%d. How much more money will she have if she hires the %s?",
			name, task, prof, hours, work, cur, rate, prof, cur, fee, prof), float64(hours*rate - fee)
	},
	24: func(g gsmRand) (string, float64) {
		comet := g.choice("Halley", "Hale-Bopp", "Hyakutake", "Encke")
		name := g.choice("William", "James", "John", "Robert", "Michael", "David")
		relative := g.choice("dad", "father", "uncle", "grandfather")
		mult := g.choiceInt(2, 3, 4)
		orbit := g.randrange(50, 101, 5)
		// The relative's age must pass orbit/mult: reasoning-gym's
		// (orbit+1)//mult rounds down and can answer -1; Quarry rounds up.
		lo, hi := max(20, (orbit+mult)/mult), min(51, 99/mult)
		age := lo
		if lo <= hi {
			age = g.randint(lo, hi)
		} else {
			orbit = lo*mult - 1
		}
		return fmt.Sprintf("Comet %s orbits the sun every %d years. %s's %s saw the Comet when he was %d years old. %s saw the comet a second time when he was %d times the age his %s was when he saw the Comet. How old was %s when he saw the Comet for the first time?",
			comet, orbit, name, relative, age, name, mult, relative, name), float64(age*mult - orbit)
	},
	25: func(g gsmRand) (string, float64) {
		food := g.choice("popcorn", "breads", "cookies")
		unit := g.choice("grams", "ounces", "oz")
		servings := g.randint(4, 6)
		size := g.randint(4, 12) * servings
		cal := 25 * g.randint(6, 16)
		consumed := 25 * g.randint(24, 60)
		needed := g.randint(1, 3) * cal
		target := consumed + needed
		if target < 1900 {
			target = 1900 + (needed - (1900 - target))
		}
		target = 5 * (target / 5)
		return fmt.Sprintf("According to its nutritional info, a bag of %s has %d calories per serving. If a %d %s bag has %d servings, how many %s can you eat if your daily calorie target is %d and you have already consumed %d calories?",
			food, cal, size, unit, servings, unit, target, consumed), float64(size/servings) * float64(target-consumed) / float64(cal)
	},
	26: func(g gsmRand) (string, float64) {
		ball := g.choice("golf", "tennis")
		color := g.choice("blue", "red", "green", "yellow", "white")
		fracs := []int{50, 25, 75} // percent
		f1, f2 := fracs[g.rng.IntN(3)], fracs[g.rng.IntN(3)]
		n := g.randint(10, 100)
		for n*f1%100 != 0 || n*f1*f2%10000 != 0 {
			n = g.randint(10, 100)
		}
		return fmt.Sprintf("A juggler can juggle %d balls. %d%% of the balls are %s balls, and %d%% of the %s balls are %s. How many %s %s balls are there?",
			n, f1, ball, f2, ball, color, color, ball), float64(n * f1 / 100 * f2 / 100)
	},
	27: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Michael", "David", "James", "Robert", "William")
		cur := g.choice("$", "£", "€")
		n := g.randint(3, 8)
		apts, pct := g.randrange(100, 500, 50), g.randrange(20, 81, 5)
		freq := g.randint(2, 6)
		rate := []float64{0.25, 0.30, 0.35, 0.40, 0.45, 0.50}[g.rng.IntN(6)]
		for (n-1)*apts*pct%100 != 0 {
			apts, pct = g.randrange(100, 500, 50), g.randrange(20, 81, 5)
		}
		first := (n - 1) * apts
		total := first + first*pct/100 + first
		return fmt.Sprintf("%s collects garbage from %d different apartment complexes. The first %d have %d apartments each and the last one is %d%% bigger than the other %d combined. %s collects garbage %d times a week from each place and he gets paid %s%.2f per collection for each apartment. How much money does he make in a week?",
			name, n, n-1, apts, pct, n-1, name, freq, cur, rate), round2(float64(total*freq) * rate)
	},
	28: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Michael", "David", "James", "Robert", "William", "Richard", "Thomas")
		item := g.choice("tea", "sugar", "flour", "rice")
		cur := g.choice("$", "£", "€")
		unit := g.choice("kilogram", "kg")
		extra := g.choice("cookie", "muffin", "bagel")
		price, pct := g.randint(3, 25), g.randint(2, 10)*5
		usage, extraPrice := g.randint(1, 3), g.randint(1, 5)
		for price*pct%100 != 0 {
			price = g.randint(3, 25)
		}
		return fmt.Sprintf("%s goes to the store to buy some %s. The normal brand of %s he buys costs %s%d per %s. He had to buy a more expensive brand that costs %d%% more since his favorite brand was sold out. He decides to buy a week's worth of %s and he uses %d %s of %s per day. He also decided to buy himself a %s for %s%d. How much did everything cost?",
			name, item, item, cur, price, unit, pct, item, usage, unit, item, extra, cur, extraPrice), float64((price+price*pct/100)*usage*7 + extraPrice)
	},
	29: func(g gsmRand) (string, float64) {
		names := g.sample(2, "Jennifer", "Michael", "Christopher", "Jessica", "Matthew", "Ashley", "Joshua", "Amanda",
			"Daniel", "David", "James", "Robert", "John", "Joseph")
		k1, k2 := 10*g.randint(17, 25), 10*g.randint(12, 15)
		k := k1 + k2
		lo, hi := (max(1350, 3*k)+k-1)/k, 1700/k
		if hi < lo {
			lo, hi = 3, 4
		}
		total := k * g.randint(lo, hi)
		minN1, maxN1 := max(950, total/2), min(1050, total-400)
		n1 := total/2 + 50
		if minN1 < maxN1 {
			n1 = 5 * g.randint(minN1/5, maxN1/5)
		}
		return fmt.Sprintf("%s's dog has %d puppies, %d of which have spots. %s's dog has %d puppies, %d of which have spots. What percentage of all the puppies have spots?",
			names[0], n1, k1, names[1], total-n1, k2), float64(100 * k / total)
	},
	30: func(g gsmRand) (string, float64) {
		group := g.choice("group", "class")
		sport := g.choice("basketball", "soccer", "tennis", "baseball", "volleyball")
		h := g.sample(3, "read", "paint", "hike", "dance", "bake", "play video games", "play music")
		n := g.randint(20, 200)
		n2, n1 := g.randint(2, n/6), g.randint(2, n/3)
		for n1+3*n2 >= n {
			n = g.randint(20, 200)
			n2, n1 = g.randint(2, n/6), g.randint(2, n/3)
		}
		return fmt.Sprintf("A %s of %d students has various hobbies. %d like to %s, %d like to play %s, and the rest like to either %s or %s. How many like to %s if the number that like to %s is twice the number that prefer playing %s?",
			group, n, n1, h[0], n2, sport, h[1], h[2], h[1], h[2], sport), float64(n - n1 - 3*n2)
	},
	31: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte", "Doxa")
		fruit := g.choice("orange", "pear", "peach", "mango", "kiwi", "apple")
		sib := g.sample(2, "brother", "sister", "cousin", "friend")
		total := g.randint(3*3+2*5+3, 33)
		n1 := 3
		rest := total - 3*n1
		n2 := g.randint(5, max(5, min(13, rest/2)))
		rest -= 2 * n2
		n3 := g.randint(3, max(3, min(14, rest)))
		return fmt.Sprintf("%s sliced an %s into %d pieces. She ate %d slice, her %s ate %d more than her, and her %s ate %d more than her %s. How many slices of %s did they all eat?",
			name, fruit, total, n1, sib[0], n2, sib[1], n3, sib[0], fruit), float64(n1 + (n1 + n2) + (n1 + n2 + n3))
	},
	33: func(g gsmRand) (string, float64) {
		names := g.sample(2, "Julie", "Sarah", "Emma", "Sophia", "Olivia", "Isabella", "Mia", "Charlotte")
		mult := g.choiceInt(2, 3, 4)
		var valid []int
		for n := 30; n <= 100; n++ {
			if n*(1+mult)%7 == 0 {
				valid = append(valid, n)
			}
		}
		n := valid[g.rng.IntN(len(valid))]
		return fmt.Sprintf("%s operates the cash register exactly %d times as fast as her less-experienced colleague %s. Daily, %s processes %d customers. What is the total weekly production for the two if they work all days of the week?",
			names[0], mult, names[1], names[1], n), float64((n + n*mult) * 7)
	},
	34: func(g gsmRand) (string, float64) {
		event := g.choice("Halloween candy hunt", "Treasure hunt", "Scavenger hunt", "Charity fundraiser")
		item := g.choice("eggs", "treats", "toys", "coins", "tokens", "balls", "candies", "goodies")
		family := g.choice("Johnson", "Williams", "Mirzakhani", "Lopez", "Garcia", "Lee")
		total := g.randrange(50, 201, 10)
		n, m := g.randint(10, 51), g.randint(5, 21)
		for 2*n+m >= total {
			n, m = g.randint(10, 51), g.randint(5, 21)
		}
		return fmt.Sprintf("The %s team hid %d %s. The %s twins each found %d %s. All the other %s except %d were found by their friends. How many %s did the friends find?",
			event, total, item, family, n, item, item, m, item), float64(total - 2*n - m)
	},
	36: func(g gsmRand) (string, float64) {
		var n, p1, r1 int
		for {
			n, p1, r1 = g.randrange(10, 151, 10), g.randrange(5, 71, 5), g.randrange(5, 101, 5)
			// reasoning-gym's test, in floats: it also turns down some
			// integral counts (20 × 0.35 is 7.000000000000001).
			fn, fp, fr := float64(n), float64(p1)/100, float64(r1)/100
			if isWhole(fn*fp) && isWhole(fn*fp*fr) && isWhole(fn*(1-fp)*0.5) {
				break
			}
		}
		name := g.choice("Emma", "Sophia", "Olivia", "Ava", "Isabella", "Mia", "Charlotte")
		s := g.sample(3, "history", "geography", "biology", "chemistry", "physics", "economics", "literature", "algebra", "geometry")
		return fmt.Sprintf("In a %d-item quiz, %d%% of the questions are %s, and the rest are equally divided as %s and %s questions. If %s is sure to get %d%% of the %s questions, and half of the %s and %s questions correctly, how many points is she sure to get?",
			n, p1, s[0], s[1], s[2], name, r1, s[0], s[1], s[2]), float64(n*p1*r1/10000 + (n-n*p1/100)/2)
	},
	38: func(g gsmRand) (string, float64) {
		name := g.choice("Martha", "Mary", "Elizabeth", "Susan", "Margaret", "Patricia")
		count := 2 + g.rng.IntN(4)
		kind := []string{"twins", "triplets", "quadruplets", "quintuplets"}[count-2]
		c := g.sample(3, "sweater", "shawl", "hat", "cardigan", "poncho", "vest", "beanie", "tunic")
		a := g.sample(2, "mittens", "booties", "socks", "leg warmers", "gloves")
		n := []int{g.randint(3, 19), g.randint(3, 19), g.randint(3, 19), g.randint(3, 19), g.randint(3, 19)}
		return fmt.Sprintf("%s is knitting winter wear for her %d grandchildren. They're %s, so they're all the same size. She wants to make a %s, %s, %s, %s, and %s for each of them. It takes %d skeins of wool to make a %s, %d for a %s, %d for a %s, %d for a pair of %s, and %d for a pair of %s. How many skeins of wool will she need to buy?",
			name, count, kind, c[0], c[1], c[2], a[0], a[1], n[0], c[0], n[1], c[1], n[2], c[2], n[3], a[0], n[4], a[1]), float64(count * (n[0] + n[1] + n[2] + n[3] + n[4]))
	},
	39: func(g gsmRand) (string, float64) {
		school := g.choice("Maple Grove", "Sunny Hill", "Oak Ridge", "Pine Valley")
		grade := g.choice("first", "second", "third", "fourth", "fifth")
		day := g.choice("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
		total := g.randint(40, 150)
		girls := g.randint(20, total-20)
		boys := total - girls
		absentGirls := g.randint(2, max(3, min(girls/4, 10, 8)))
		absentBoys := g.randint(2, max(3, min(boys/4, 10, 8)))
		return fmt.Sprintf("There are %d %s-graders at %s School. %d of them are girls. On %s, %d %s-grade girls and %d %s-grade boys were absent. How many %s grade boys were at %s School on %s?",
			total, grade, school, girls, day, absentGirls, grade, absentBoys, grade, grade, school, day), float64(boys - absentBoys)
	},
	40: func(g gsmRand) (string, float64) {
		item := g.choice("magician", "artist", "chef", "scientist", "athlete")
		c := g.sample(3, "red", "blue", "green", "yellow", "purple", "orange")
		n1 := 20
		var factors []int
		for range 100 { // reasoning-gym's attempts (a miss has odds 0.4^100)
			n1 = g.randint(20, 81)
			factors = factors[:0]
			for p := 20; p <= 90; p++ {
				if p*n1%100 == 0 {
					factors = append(factors, p)
				}
			}
			if len(factors) > 0 {
				break
			}
		}
		if len(factors) == 0 {
			n1, factors = 20, []int{20}
		}
		p := factors[g.rng.IntN(len(factors))]
		// Exact: reasoning-gym's int(p/100*n1) is 28 for 58% of 50.
		n2 := n1 + p*n1/100
		return fmt.Sprintf("In a set of %s's cards, there are %d %s cards, and %d%% more %s cards. %s cards are as many as the sum of %s and %s cards. How many cards of all mentioned colors are there?",
			item, n1, c[0], p, c[1], c[2], c[0], c[1]), float64(2 * (n1 + n2))
	},
	41: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Michael", "David", "James", "William", "Robert", "Joseph")
		event := g.choice("field trip", "sports tournament", "conference", "music festival", "science fair")
		org := g.choice("school", "community center", "local charity", "youth club", "parent association")
		cur := g.choice("$", "€", "£")
		g.choice("half", "1/2", "one-half") // every one reads 1/2
		total := g.randrange(200, 1000, 10)
		covered := total / 2
		current := g.randrange(10, min(200, total-covered-50), 5)
		return fmt.Sprintf("%s is raising money for a %s. He has applied for help from the %s, which has decided to cover 1/2 of the cost of the %s. How much money is %s missing if he has %s%d and the %s costs %s%d?",
			name, event, org, event, name, cur, current, event, cur, total), float64(total - covered - current)
	},
	42: func(g gsmRand) (string, float64) {
		title := g.choice("Mr.", "Prof.", "Dr.")
		name := g.choice("Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez")
		prop := g.choice("house", "apartment", "condo", "villa", "cottage")
		fee1, fee2 := g.choice("transfer", "registration", "legal"), g.choice("brokerage", "agent", "realtor")
		p1, p2 := g.randint(1, 5), g.randint(2, 7)
		loan := 10000 * g.randint(10, 70)
		lo := max(200000, loan+100000, int(float64(loan+1000)/(1-float64(p1+p2)/100)))
		hi := 1000000
		if hi <= lo {
			hi = lo + 500000
		}
		price := 10000 * g.randint(lo/10000, hi/10000)
		return fmt.Sprintf("%s %s sold his %s for $%d. He paid the %s fees that amount to %d%% of the selling price and also paid a %s fee that is %d%% of the selling price. If he also paid $%d for the remaining loan amount of the %s, how much is %s %s's net proceeds from selling the %s?",
			title, name, prop, price, fee1, p1, fee2, p2, loan, prop, title, name, prop), float64(price - price*p1/100 - price*p2/100 - loan)
	},
	43: func(g gsmRand) (string, float64) {
		person := g.choice("student", "boy", "child", "kid")
		item := g.choice("marble", "sticker", "toy", "book", "pencil")
		relation := g.choice("sister", "brother", "friend", "cousin")
		n := g.randint(5, 21)
		k := g.randint(2, min(n-1, 10))
		return fmt.Sprintf("A %s has %d %ss. His %s has %d fewer %ss than he has. How many %ss do they have together?",
			person, n, item, relation, k, item, item), float64(n + n - k)
	},
	44: func(g gsmRand) (string, float64) {
		store := g.choice("store", "shop", "market", "warehouse")
		c := g.sample(3, "red", "blue", "green", "yellow", "purple", "orange", "pink")
		cur := g.choice("$", "€", "£")
		n1, n2, n3 := g.randint(3, 20), g.randint(5, 30), g.randint(15, 50)
		p1, p2, p3 := g.randint(5, 15), g.randint(3, 10), g.randint(2, 8)
		return fmt.Sprintf("There are currently %d %s balls, %d %s balls, and %d %s balls in the %s. %s balls cost %s%d, %s balls cost %s%d and %s balls cost %s%d. How much will the %s have received after all the balls are sold?",
			n1, c[0], n2, c[1], n3, c[2], store, c[0], cur, p1, c[1], cur, p2, c[2], cur, p3, store), float64(n1*p1 + n2*p2 + n3*p3)
	},
	45: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Sophia", "Isabella", "Ava", "Mia", "Charlotte")
		event := g.choice("lunch party", "birthday party", "potluck party", "baby shower", "game night")
		food := g.choice("roast chicken", "grilled salmon", "beef stew", "vegetable lasagna", "stuffed peppers", "shrimp scampi", "creme brulee")
		obj := g.choice("spoons", "forks", "plates")
		husband, bought := g.randint(5, 20), g.randint(10, 30)
		used := g.randint(3, min(bought+husband-1, 10))
		return fmt.Sprintf("%s was preparing for a %s at her house, where she intended to serve %s. She noticed that she was out of plastic %s, so she bought a new package of %s. Later, her husband also bought a package of %d new %s and gave them to %s. While %s was making the %s, she used %d of the %s to sample her %s. Later, when she went to set the table, she had a total of %d %s. How many %s were in the package that %s bought?",
			name, event, food, obj, obj, husband, obj, name, name, food, used, obj, food, bought+husband-used, obj, obj, name), float64(bought)
	},
	46: func(g gsmRand) (string, float64) {
		f := g.sample(2, "apple", "grape", "mango", "peach", "lemon")
		fracs := []float64{2.0 / 3, 3.0 / 5, 3.0 / 4, 1.0 / 2, 4.0 / 5}
		fr1, fr2 := fracs[g.rng.IntN(5)], fracs[g.rng.IntN(5)]
		n1, n2 := g.randint(9, 21), g.randint(12, 31)
		spill := g.randint(3, min(7, n1))
		// reasoning-gym's test, in floats.
		for !(n1+n2-spill > 0 && isWhole(float64(n2)*fr2) && isWhole(float64(n1-spill)*fr1)) {
			n1, n2 = g.randint(9, 21), g.randint(12, 31)
			spill = g.randint(3, min(7, n1))
		}
		return fmt.Sprintf("I have %d liters of %s drink that are %s water and I wish to add it to %d liters of %s drink that is %s water. But as I pour it, I spill %d liter of the %s drink. How much water is in the remaining %d liters?",
			n1, f[0], pyFloat(fr1), n2, f[1], pyFloat(fr2), spill, f[0], n1+n2-spill), math.Trunc(float64(n1-spill)*fr1 + float64(n2)*fr2)
	},
	47: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Michael", "David", "James", "William", "Robert", "Thomas")
		obj := g.sample(2, "notebooks", "pencils", "erasers", "crayons", "colored pencils", "markers", "rulers", "folders")
		cur := g.choice("$", "€", "£")
		quarter := func(lo, hi float64) float64 { return math.RoundToEven((lo+(hi-lo)*g.rng.Float64())*4) / 4 }
		n1 := g.randrange(6, 25, 2)
		c1 := quarter(2.25, 11.5)
		n2 := g.randrange(4, 15, 2)
		c2 := quarter(8.25, 19.5)
		c3 := g.randint(10, 25)
		for !isWhole(float64(n1)*c1) || !isWhole(float64(n2)*c2) {
			c1, c2 = quarter(2.25, 11.5), quarter(8.25, 19.5)
		}
		return fmt.Sprintf("%s went to buy some school supplies. He bought %d %s which cost %s%s each, %d %s which cost %s%s each, and a rim of bond paper which cost %s%d. How much did %s spend on everything?",
			name, n1, obj[0], cur, pyFloat(c1), n2, obj[1], cur, pyFloat(c2), cur, c3, name), float64(n1)*c1 + float64(n2)*c2 + float64(c3)
	},
	48: func(g gsmRand) (string, float64) {
		item1, item2 := g.choice("bread", "sourdough"), g.choice("bagel", "muffin", "croissant", "biscuit")
		shop := g.choice("bakery", "cafe", "store", "market")
		cur := g.choice("$", "£", "€")
		p1, p2 := g.randint(2, 10), g.randint(1, 5)
		n1, n2 := g.randint(2, 10), g.randint(2, 10)
		for n1*p1 <= n2*p2 {
			n1, n2 = g.randint(2, 10), g.randint(2, 10)
		}
		return fmt.Sprintf("A loaf of %s at the %s costs %s%d. %ss cost %s%d each. How much more do %d loaves of %s cost than %d %ss?",
			item1, shop, cur, p1, item2, cur, p2, n1, item1, n2, item2), float64(n1*p1 - n2*p2)
	},
	49: func(g gsmRand) (string, float64) {
		name := g.choice("George", "James", "John", "Robert", "Michael", "William")
		items := g.sample(2, "pretzels", "popcorn", "gum", "cookies", "crackers")
		cur := g.choice("$", "£", "€")
		p1 := g.randrange(25, 100, 5)
		p2 := g.randrange((p1+5)/5*5, 150, 5)
		pct, n1 := g.randint(1, 10), g.randint(1, 10)
		step := 100 / gcd(100, pct)
		var totals []int
		for t := (500 + step - 1) / step * step; t <= 1500; t += step {
			if left := t * (100 - pct); left%100 == 0 && (left-n1*p1)%p2 == 0 {
				totals = append(totals, t)
			}
		}
		total := 1000
		if len(totals) == 0 {
			pct, n1 = 10, 1
		} else {
			total = totals[g.rng.IntN(len(totals))]
		}
		// In cents, exactly: reasoning-gym's float division is one short
		// for about one item in nine.
		return fmt.Sprintf("The vending machines sell %s for %d cents and %s for %d cents. %s spent %s%d and got %d bags of %s and had %d%% of his money left. How many %s did he buy?",
			items[0], p1, items[1], p2, name, cur, total, n1, items[0], pct, items[1]), float64((total*(100-pct) - n1*p1) / p2)
	},
	50: func(g gsmRand) (string, float64) {
		name := g.choice("Teddy", "Tommy", "Billy", "Jimmy", "Bobby", "Danny")
		p1, p2 := g.randrange(100, 500, 2), g.randrange(300, 1000, 2)
		return fmt.Sprintf("%s finished half of a %d piece puzzle, and then started and finished another %d piece puzzle within an hour. How many puzzle pieces did %s place during that hour?",
			name, p1, p2, name), float64(p1/2 + p2)
	},
	51: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Sophia", "Isabella", "Mia", "Charlotte")
		parent := g.choice("mom", "dad", "aunt", "uncle")
		a1 := g.choice("mini-golf", "bowling", "laser tag")
		a2 := g.choice("arcade", "game room", "pinball")
		a3 := g.choice("go-karts", "bumper cars", "roller coaster")
		cur := g.choice("$", "£", "€")
		times := g.choiceInt(2, 3)
		tokens, cost1, cost2 := g.randint(3, 11), g.randint(3, 11), g.randint(5, 21)
		people := g.randint(2, 10)
		budget := (tokens + cost1 + cost2*times) * people
		return fmt.Sprintf("%s's %s said that she had %s%d budgeted for her birthday party. She wants to make sure she and her friends all get to play one round of %s, have %s%d in %s tokens, and get to ride the %s %d. A round of %s is %s%d. The %s cost %s%d a ride. How many friends can she invite?",
			name, parent, cur, budget, a1, cur, tokens, a2, a3, times, a1, cur, cost1, a3, cur, cost2), float64(people - 1)
	},
	52: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Sophia", "Olivia", "Ava", "Isabella", "Mia", "Charlotte", "Amelia")
		alphabets := []struct {
			name  string
			count int
		}{{"alphabet", 26}, {"hiragana (with 48 letters)", 48}, {"farsi alphabet (with 32 letters)", 32}, {"arabic abjad (with 28 letters)", 28}}
		a := alphabets[g.rng.IntN(4)]
		n1 := 2 + g.rng.IntN(3) // twice, three times, four times
		frac := []float64{0.5, 1.0 / 3, 0.25}[g.rng.IntN(3)]
		for !isWhole(float64(a.count) * frac) {
			a = alphabets[g.rng.IntN(4)]
		}
		// reasoning-gym writes the numbers as they are: "in full 2", "0.5 of it".
		return fmt.Sprintf("%s is learning to write and decides to keep re-writing the %s until she knows it. She writes it in full %d, writes %s of it once, then re-writes everything she has already written. How many letters has %s written in total?",
			name, a.name, n1, pyFloat(frac), name), float64((n1*a.count + int(float64(a.count)*frac)) * 2)
	},
	53: func(g gsmRand) (string, float64) {
		name := g.choice("James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph")
		property := g.choice("even", "odd")
		sides := g.choiceInt(4, 6, 8, 10, 12, 20)
		target := 0
		for {
			target = g.randint(1, sides-1)
			above := sides - target
			if above%target == 0 && above*100%sides == 0 && above*100 > 25*sides {
				break
			}
		}
		return fmt.Sprintf("%s is rolling a %d-sided die. How much more likely is it (expressed as a percentage) that he rolls a number greater than %d than that he rolls two %s numbers in a row?",
			name, sides, target, property), float64((sides-target)*100/sides - 25)
	},
	54: func(g gsmRand) (string, float64) {
		names := g.sample(2, "John", "Jack", "James", "William", "Michael", "David", "Joseph")
		loc := g.sample(3, "cinema", "mall", "library", "park", "gym", "bank", "school")
		notFive := func(lo, hi int) int {
			v := g.randint(lo, hi)
			for v%5 == 0 {
				v = g.randint(lo, hi)
			}
			return v
		}
		library := notFive(10, 30)
		station := notFive(10, 70)
		total := notFive(library+station+5, 140)
		return fmt.Sprintf("%s and %s have %d minutes to walk to %s together. It takes them %d minutes to get to the corner where the %s is. It takes them another %d minutes to get to the %s. How much longer do they have to get to %s without being late?",
			names[0], names[1], total, loc[0], library, loc[1], station, loc[2], loc[0]), float64(total - library - station)
	},
	55: func(g gsmRand) (string, float64) {
		name := g.choice("Dax", "Alex", "Sam", "Jordan", "Taylor", "Morgan", "Riley")
		place := g.choice("orchard", "backyard", "greenhouse", "allotment")
		fruit := g.choice("strawberries", "cherries", "blueberries", "raspberries")
		location := g.choice("garden", "field", "plot", "patch")
		insects := g.sample(2, "beetles", "ladybugs", "grasshoppers", "caterpillars", "bees", "wasps")
		n := g.randint(20, 200)
		n += n % 2
		return fmt.Sprintf("%s went to their %s to pick some %s and found half as many %s as %s in the %s. If there were %d %s, calculate the total number of insects in the %s.",
			name, place, fruit, insects[0], insects[1], location, n, insects[1], location), float64(n + n/2)
	},
	56: func(g gsmRand) (string, float64) {
		family := g.choice("Smith", "Johnson", "Williams", "Brown", "Jones")
		item := g.choice("cupcake", "muffin", "brownie", "biscuit")
		fl := g.sample(3, "vanilla", "strawberry", "blueberry", "lemon", "peanut butter")
		total := g.randrange(5000, 10000, 25)
		n1, n2 := g.randint(1000, 3000), g.randint(1000, 3000)
		for n1+n2 >= total {
			n1, n2 = g.randint(1000, 3000), g.randint(1000, 3000)
		}
		return fmt.Sprintf("The %s family is busy making %ss. So far, they've made %d %ss. They have %d %s %ss, %d %s %ss, and some %s %ss. How many %s %ss have they made?",
			family, item, total, item, n1, fl[0], item, n2, fl[1], item, fl[2], item, fl[2], item), float64(total - n1 - n2)
	},
	57: func(g gsmRand) (string, float64) {
		s := g.sample(3, "basketball", "badminton", "table tennis", "football", "volleyball")
		n1 := g.randint(4, 21)
		n2 := g.randint(10, 31) // reasoning-gym's caps (250 students) never bind at difficulty 1
		n3 := g.randint(10, 31)
		return fmt.Sprintf("There are %d students playing %s and twice that number playing %s. There are %d boys and %d girls playing %s. If each student only participates in one group, how many students are there in total?",
			n1, s[0], s[1], n2, n3, s[2]), float64(n1 + 2*n1 + n2 + n3)
	},
	58: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Mike", "James", "David", "Robert", "William")
		container := g.choice("cup", "bottle", "carton")
		liquid := g.choice("juice", "soda", "sparkling water", "tea", "lemonade")
		unit := g.choice("ounce", "mL", "cc", "oz")
		volume, n, cal := g.randint(6, 16), g.randint(2, 6), g.randint(2, 10)
		return fmt.Sprintf("A %s of %s is %d %ss of %s. %s drinks %d %ss of %s. If %s has %d calories per %s how many calories did he consume?",
			container, liquid, volume, unit, liquid, name, n, container, liquid, liquid, cal, unit), float64(volume * n * cal)
	},
	59: func(g gsmRand) (string, float64) {
		d := g.randint(2, 50)
		n := g.randint(2, min(20, 100/d))
		t := g.randint(2, 500)
		return fmt.Sprintf("A fog bank rolls in from the ocean to cover a city. It takes %d minutes to cover every %d miles of the city. If the city is %d miles across from the oceanfront to the opposite inland edge, how many minutes will it take for the fog bank to cover the whole city?",
			t, d, d*n), float64(n * t)
	},
	60: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Sophia", "Isabella", "Olivia", "Ava", "Mia", "Emily")
		unit := g.choice("mile", "kilometer", "block")
		beach := g.randint(10, 15)
		var times []int // multiples of beach in 40..65: never empty
		for t := beach; t <= 65; t += beach {
			if t >= 40 {
				times = append(times, t)
			}
		}
		beachTime := times[g.rng.IntN(len(times))]
		side := g.randint(10, 15)
		return fmt.Sprintf("%s walks %d %ss every day on her favorite walking trail, which includes %d %ss of walking on the beach and %d %ss of walking on the sidewalk. On the sidewalk, %s walks at twice the rate of speed that she does on the beach. If %d minutes of her walk is spent on the beach, how long does it take for her to complete the entire %d-%s walk, in minutes?",
			name, beach+side, unit, beach, unit, side, unit, name, beachTime, beach+side, unit), float64(beachTime + side*beachTime/(2*beach))
	},
	62: func(g gsmRand) (string, float64) {
		item := g.choice("pizza", "cake", "pie", "lasagna")
		unit := g.choice("pieces", "portions", "servings")
		names := g.sample(2, "Emma", "Liam", "Olivia", "Noah", "Ava", "Elijah", "Charlotte", "James")
		per := g.randint(2, 6)
		days := g.randint(2, 8)
		return fmt.Sprintf("A %s has %d %s. If %s can eat %d %s a day while %s can eat 2 times as much, how many days will the %s last?",
			item, 3*per*days, unit, names[0], per, unit, names[1], item), float64(days)
	},
	64: func(g gsmRand) (string, float64) {
		name := g.choice("Chester", "James", "John", "Robert", "Michael", "William", "David")
		n1, n2 := g.randint(2, 6), g.randint(4, 8)
		for n2 <= n1 {
			n2 = g.randint(4, 8)
		}
		d1, d2 := g.randint(20, 110), g.randint(20, 110)
		for (n1*d1+n2*d2)%12 != 0 {
			d1, d2 = g.randint(20, 110), g.randint(20, 110)
		}
		return fmt.Sprintf("If %s eats %d eggs a day for %d days and then increases it to %d eggs a day for %d days, how many dozens of eggs will %s need for %d days?",
			name, n1, d1, n2, d2, name, d1+d2), float64((n1*d1 + n2*d2) / 12)
	},
	66: func(g gsmRand) (string, float64) {
		name := g.choice("James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph")
		h1, h2, h3 := g.randint(3, 7), g.randint(2, 7), g.randint(2, 6)
		m1, m2 := 5*g.randint(1, 12), 5*g.randint(1, 11)
		wed := g.randint(1, 8)
		// reasoning-gym prints the total as a Python float, as computed.
		total := float64(2*h1+h2) + float64(m2)/60 + float64(2*h3) + float64(wed*m1)/60
		return fmt.Sprintf("%s watches TV after he finishes his homework every night. On Monday and Tuesday, he watched a %d-hour episode of his favorite show each night. On Wednesday, he watched a few episodes of a %d-minute show. On Thursday, he finished homework early and watched a %d-hour episode and a %d-minute show. On Friday, he got to stay up late for the weekend, so he watched two %d-hour episodes. If he watched %s hours of TV in all, how many %d-minute episodes did he watch on Wednesday?",
			name, h1, m1, h2, m2, h3, pyFloat(total), m1), float64(wed)
	},
	67: func(g gsmRand) (string, float64) {
		name := g.choice("John", "James", "William", "Michael", "David", "Robert", "Thomas")
		fruit := g.choice("banana", "apple", "orange", "pear", "peach", "plum")
		d := g.sample(3, "Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
		mult := 2 + g.rng.IntN(3) // double, triple, quadruple
		n1, n2 := g.randint(30, 400), g.randint(50, 400)
		return fmt.Sprintf("%s picks %d %ss on %s. Then he picks %d %ss on %s. On %s, he picks %d times the number of %ss he did on %s. How many %ss does %s have?",
			name, n1, fruit, d[0], n2, fruit, d[1], d[2], mult, fruit, d[0], fruit, name), float64(n1 + n2 + mult*n1)
	},
	68: func(g gsmRand) (string, float64) {
		disease := g.choice("virus", "bacteria", "parasite", "infection")
		n0 := g.randint(5, 20)
		r := g.randint(2, 7) // reasoning-gym's cap: min(8, ⌊(20000/n0)^(1/3) − 1⌋, 7) is 7 for n0 ≤ 20
		return fmt.Sprintf("A %s infects %d people. Every day, each infected person infects %d others. How many people are infected after 3 days?",
			disease, n0, r), float64(n0 * (1 + r) * (1 + r) * (1 + r))
	},
	69: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte", "Amelia", "Harper", "Evelyn")
		doc := g.choice("essay", "report", "thesis", "dissertation", "assignment")
		frac := g.choice("1/2", "1/3", "1/4", "2/3", "3/4")
		num, den := int(frac[0]-'0'), int(frac[2]-'0')
		pages := den * g.randint(1, 325/den)
		return fmt.Sprintf("%s is required to submit a %d-page %s. She already finished writing %s of the %s. How many pages does she have left to write?",
			name, pages, doc, frac, doc), float64(pages - pages*num/den)
	},
	70: func(g gsmRand) (string, float64) {
		name := g.choice("James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph")
		obj := g.choice("marbles", "coins", "buttons", "beads", "pebbles")
		obstacle := g.choice("rock", "stick", "toy", "root")
		var fakes []string
		for _, f := range []string{"buttons", "coins", "pebbles", "beads"} {
			if f != obj {
				fakes = append(fakes, f)
			}
		}
		fake := fakes[g.rng.IntN(len(fakes))]
		quarters := []int{2, 1, 3}[g.rng.IntN(3)] // 0.5, 0.25, 0.75
		step := 4
		if quarters == 2 {
			step = 2
		}
		first := 10 + (step-10%step)%step
		n := first + step*g.rng.IntN((101-first+step-1)/step)
		nFrac := n * quarters / 4
		fakeNum := g.randint(2, min(10, nFrac))
		var k int
		if fakeNum+1 < nFrac {
			k = g.randint(fakeNum+1, min(nFrac, 20))
		} else {
			k = fakeNum + 1
			req := (k + 1) * 4 / quarters
			n = req + (step-req%step)%step
		}
		dropped := n * quarters / 4
		return fmt.Sprintf("%s has a bag of %s with %d inside. He tripped over %s while carrying it and dropped %d of them. He scrambled to search for them but only came up with %d. When he went back home, he inspected the %s further. %d of them he picked up wasn't a %s, but actually %s so he got rid of it. How many %s did %s end up with?",
			name, obj, n, obstacle, dropped, k, obj, fakeNum, obj, fake, obj, name), float64(n - dropped + k - fakeNum)
	},
	71: func(g gsmRand) (string, float64) {
		name := g.choice("Emma", "Olivia", "Ava", "Isabella", "Sophia", "Charlotte", "Mia", "Amelia")
		shop := g.choice("bakery", "patisserie", "confectionery", "cafe")
		item := g.choice("pastries", "baked goods", "desserts", "treats")
		i1 := g.choice("donuts", "croissants", "eclairs", "danishes")
		i2 := g.choice("mini cupcakes", "macarons", "cookies", "tarts")
		i3 := g.choice("mini cheesecakes", "brownies", "muffins", "scones")
		n1, n2, n3 := g.randint(1, 10), g.randint(4, 10), g.randint(2, 10)
		p1, p2, p3 := g.randint(11, 21), g.randint(73, 90), g.randint(112, 120)
		return fmt.Sprintf("%s went to the %s and bought various types of %s. She bought %d dozen %s which cost $%d per dozen, %d dozen %s which cost $%d per dozen, and %d dozen %s for $%d per dozen. How much was the total cost?",
			name, shop, item, n1, i1, p1, n2, i2, p2, n3, i3, p3), float64(n1*p1 + n2*p2 + n3*p3)
	},
	72: func(g gsmRand) (string, float64) {
		structure := g.choice("building", "pyramid", "stack", "tower")
		obj := g.choice("brick", "cube", "tile", "block")
		c := g.sample(3, "green", "purple", "orange", "pink", "white", "black")
		n1 := g.randint(2, 10)
		total := g.randint(3*n1+1, 3*n1+21)
		return fmt.Sprintf("A %s is made out of %d %s %ss, 2 times as many %s %ss, and an unknown number of %s %ss. If there are %d %ss in the %s in total, how many %s %ss are there?",
			structure, n1, c[0], obj, c[1], obj, c[2], obj, total, obj, structure, c[2], obj), float64(total - 3*n1)
	},
	73: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Michael", "David", "James", "William", "Robert")
		fruit := g.choice("apple", "cherry", "blueberry", "peach")
		food := g.choice("cookie", "brownie", "muffin", "cupcake")
		d := g.sample(2, "Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
		cur := g.choice("$", "£", "€")
		n1, n2, m2 := g.randint(21, 30), g.randint(11, 15), g.randint(21, 30)
		m1 := g.randint(11, min(20, m2))
		cn, cm := g.randint(7, 13), g.randint(20, 33)
		return fmt.Sprintf("%s is selling %s and %s pie for a fundraiser. On %s, he sold %d boxes of %s and %d fewer boxes of %s pie, than on %s. On %s, he sold %d more boxes of %s than on %s and %d boxes of %s pie. If the %s cost %s%d and the %s pie cost %s%d, how much did %s earn for two days?",
			name, food, fruit, d[0], n1, food, m1, fruit, d[1], d[1], n2, food, d[0], m2, fruit, food, cur, cn, fruit, cur, cm, name), float64((n1+n1+n2)*cn + (m2+m2-m1)*cm)
	},
	75: func(g gsmRand) (string, float64) {
		names := g.sample(2, "Ben", "James", "John", "Michael", "William", "David", "Richard", "Joseph")
		colors := g.sample(2, "blue", "red", "green", "yellow", "purple", "orange")
		n1, n2 := g.randint(2, 20), g.randint(2, 20)
		return fmt.Sprintf("%s has %d tubes of %s paint and %d tubes of %s paint. %s has half as many tubes of %s paint as %s, and three times as many tubes of %s paint as %s. How many tubes of paint does %s have?",
			names[0], n1, colors[0], n2, colors[1], names[1], colors[0], names[0], colors[1], names[0], names[1]), float64(n1/2 + 3*n2)
	},
	78: func(g gsmRand) (string, float64) {
		names := g.sample(2, "Emma", "Olivia", "Ava", "Isabella", "Sophia", "Mia", "Charlotte", "Amelia")
		diff := g.randint(5, 30)
		if diff%2 != 0 {
			diff++
		}
		age := g.randint(15, 75)
		return fmt.Sprintf("%s and %s are currently %d years apart in age. If %s, who is younger than %s, is %d years old, what's the average of their ages?",
			names[0], names[1], diff, names[0], names[1], age), float64((age + age + diff) / 2)
	},
	80: func(g gsmRand) (string, float64) {
		name := g.choice("Candy", "Sarah", "Emma", "Olivia", "Isabella", "Sophia", "Mia", "Charlotte")
		c := g.sample(2, "blue", "red", "green", "yellow", "purple", "orange")
		n1, n2, n3, n4 := g.randint(15, 45), g.randint(45, 100), g.randint(20, 80), g.randint(50, 100)
		for (n1+n2)*100%(n1+n2+n3+n4) != 0 { // ends by n4 = 100(n1+n2) - n1 - n2 - n3
			n4++
		}
		return fmt.Sprintf("%s has %d light %s spools of thread, %d dark %s spools of thread, %d light %s spools of thread, and %d dark %s spools of thread. What percent of her spools are %s?",
			name, n1, c[0], n2, c[0], n3, c[1], n4, c[1], c[0]), float64(100 * (n1 + n2) / (n1 + n2 + n3 + n4))
	},
	81: func(g gsmRand) (string, float64) {
		job := g.choice("plumber", "electrician", "painter", "carpenter", "landscaper")
		cur := g.choice("$", "£", "€")
		weeks, days, pay := g.randint(2, 5), g.randint(4, 7), g.randrange(40, 200, 5)
		return fmt.Sprintf("A %s works for %d weeks every month and for %d days every week. If he gets paid %s%d every day, how much does he earn if he works for a year?",
			job, weeks, days, cur, pay), float64(weeks * days * pay * 12)
	},
	82: func(g gsmRand) (string, float64) {
		name := g.choice("James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph")
		emails, pct, workdays := g.randint(50, 200), g.randint(5, 40), g.randint(3, 7)
		for emails*pct%100 != 0 || emails*(100-pct)%100 != 0 {
			emails, pct = g.randint(50, 200), g.randint(5, 40)
		}
		return fmt.Sprintf("%s gets %d emails a day. %d%% of those emails don't require any response. %s responds to the rest of them. How many emails does %s respond to in a %d day work week?",
			name, emails, pct, name, name, workdays), float64((emails - emails*pct/100) * workdays)
	},
	83: func(g gsmRand) (string, float64) {
		names := g.sample(2, "Sam", "Harry", "Tom", "John", "Mike", "Dave", "Steve", "Bob")
		unit := g.choice("feet", "yards", "meters")
		diff := 10 * g.randint(2, 18)
		total := diff + 22 + 2*g.randint(0, 100)
		return fmt.Sprintf("If %s and %s have %d %s of fence between them, and they agree to split it with %s getting %d %s more than %s, how much is left over for %s?",
			names[0], names[1], total, unit, names[1], diff, unit, names[0], names[0]), float64((total - diff) / 2)
	},
	84: func(g gsmRand) (string, float64) {
		name := g.choice("Ray", "Jim", "Bob", "Tom", "Mike", "John", "Steve")
		unit := g.choice("mile", "kilometer")
		cold := g.randint(10, 25)
		extra := g.randint(1, min(10, 60-2*cold-1))
		dist := g.randint(2, 8)
		return fmt.Sprintf("When the water is cold %s swims a %s in %d minutes. When the water is warm %s swims a %s in %d minutes more than 2 times as long. How much longer does %s take to swim %d %ss on a hot day than a cold day?",
			name, unit, cold, name, unit, extra, name, dist, unit), float64(dist * (extra + cold))
	},
	85: func(g gsmRand) (string, float64) {
		name := g.choice("William", "James", "John", "Michael", "David", "Robert", "Thomas")
		room := g.choice("living room", "study", "office", "kitchen")
		unit1, unit2, conv := "meters", "meters", 1
		if g.rng.IntN(2) == 0 {
			unit1, unit2, conv = "feet", "yards", 3
		}
		length := g.randint(5, 40)
		minW := length*conv + 1
		width := g.randint(minW, max(minW+1, min(100, minW+50)))
		return fmt.Sprintf("The area of %s's rectangular %s is %d square %s. If the length of his room is %d %s, what is the perimeter of the room in %s?",
			name, room, width*length*conv, unit1, length, unit2, unit1), float64(2 * (width + length*conv))
	},
	88: func(g gsmRand) (string, float64) {
		school := g.choice("Oakwood High School", "Riverside Academy", "Sunnyside High", "Greenville High School")
		venue := g.choice("Auditorium", "Gymnasium", "Sports Arena", "Convention Center")
		grads, faculty := g.randrange(500, 1500, 50), g.randrange(100, 500, 50)
		per := g.randint(2, 10)
		return fmt.Sprintf("%s is holding graduation in their %s this year which has space for %d people. After accounting for %d seats for graduates and %d seats for faculty attending, how many tickets would each graduate receive to give to their friends and family if the tickets are split equally?",
			school, venue, per*grads+grads+faculty, grads, faculty), float64(per)
	},
	89: func(g gsmRand) (string, float64) {
		n := g.sample(5, "Emma", "Liam", "Olivia", "Noah", "Ava", "Oliver", "Isabella", "William", "Sophia", "James",
			"Charlotte", "Benjamin", "Mia", "Lucas", "Harper")
		var dozen, first, less, found int
		for {
			dozen, first, less = g.randint(2, 10), g.randint(3, 15), g.randint(1, 5)
			third := 2*first - less
			found = first + 2*first + third + third/2
			if third > 0 && third%2 == 0 && dozen*12 > found {
				break
			}
		}
		return fmt.Sprintf("%s hid %d dozen eggs in the yard for the Easter egg hunt. %s finds %d eggs. %s finds 2 times as many as %s. %s finds %d less than %s, and %s finds 0.5 as many as %s. How many eggs are still hidden in the yard?",
			n[0], dozen, n[1], first, n[2], n[1], n[3], less, n[2], n[4], n[3]), float64(dozen*12 - found)
	},
	91: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Michael", "David", "James", "Robert", "William", "Richard")
		fruit := g.choice("pineapple", "mango", "banana", "papaya", "coconut")
		area := g.choice("hectare", "square yard", "square meter")
		size, density := g.randrange(5, 100, 5), g.randint(2, 101)
		months := g.choiceInt(1, 2, 3, 4, 6, 12)
		return fmt.Sprintf("%s has %d %ss of a %s field. There are %d %ss per %s. %s can harvest his %ss every %d months. How many %ss can %s harvest within a year?",
			name, size, area, fruit, density, fruit, area, name, fruit, months, fruit, name), float64(size * density * (12 / months))
	},
	92: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Mike", "David", "James", "Robert", "William", "Richard")
		product := g.choice("vegetable", "flower", "herb", "plant")
		location := g.choice("local fair", "community market", "street bazaar", "town square")
		it := g.sample(3, "roses", "daisies", "tulips", "lilies", "sunflowers", "orchids")
		unit := g.choice("bunch", "basket", "bouquet", "bundle")
		cur := g.choice("$", "£", "€")
		price := func(lo, hi float64) float64 { return round2(lo + (hi-lo)*g.rng.Float64()) }
		p1, p2, p3 := price(1.26, 3.53), price(2.27, 5.53), price(4.85, 6.53)
		n1, n2, n3 := g.randint(5, 21), g.randint(15, 31), g.randint(35, 41)
		// Python's round: halves go to the even dollar.
		total := float64(n1)*math.RoundToEven(p1) + float64(n2)*math.RoundToEven(p2) + float64(n3)*math.RoundToEven(p3)
		return fmt.Sprintf("%s has a %s stand at the %s. He sells three kinds of %ss: %s, %s and %s. He usually sells %s for %s%.2f per %s, %s for %s%.2f per %s and %s for %s%.2f per %s. %s has no change today, so he has decided to round all his prices to the nearest dollar. If %s sells %d %ss of %s, %d %ss of %s and %d %ss of %s, how much will he make?",
			name, product, location, product, it[0], it[1], it[2], it[0], cur, p1, unit, it[1], cur, p2, unit, it[2], cur, p3, unit, name, name, n1, unit, it[0], n2, unit, it[1], n3, unit, it[2]), total
	},
	93: func(g gsmRand) (string, float64) {
		n := g.sample(4, "Arthur", "Bruce", "Charles", "David", "Edward", "Frederick", "George", "Henry")
		creature := g.choice("ogres", "trolls", "goblins", "orcs", "giants")
		w1 := g.choice("sword", "mace", "battle axe", "war hammer")
		w2 := g.choice("spear", "lance", "javelin", "halberd")
		w3 := g.choice("rusty iron axe", "wooden club", "stone hammer", "bone dagger")
		w4 := g.choice("sword", "axe", "mace", "hammer")
		w5 := g.choice("nail file", "butter knife", "wooden spoon", "feather")
		n1 := g.randrange(50, 500, 50)
		fracs := []float64{0.25, 0.5, 0.75}
		f1 := fracs[g.rng.IntN(3)]
		mult := g.choiceInt(2, 3, 4)
		f2 := fracs[g.rng.IntN(3)]
		for !isWhole(float64(n1)*f1) || !isWhole(float64(n1)*f1*float64(mult)*f2) {
			n1 = g.randrange(50, 500, 50)
		}
		return fmt.Sprintf("%s slew %d %s with his mighty %s, while %s, using a %s, slew %s as many %s as %s. Using a %s, %s slew %d as many %s as %s. But %s, having forgot his %s at home, slew %s as many %s as %s using a %s. How many %s has %s slain?",
				n[0], n1, creature, w1, n[1], w2, pyFloat(f1), creature, n[0], w3, n[2], mult, creature, n[1], n[3], w4, pyFloat(f2), creature, n[2], w5, creature, n[3]),
			math.Trunc(math.Trunc(float64(n1)*f1) * float64(mult) * f2)
	},
	94: func(g gsmRand) (string, float64) {
		name := g.choice("Maria", "Sarah", "Emma", "Isabella", "Sophia", "Mia", "Charlotte")
		var shares, price, inc, dec int
		for {
			shares, price = g.randint(5, 20), g.randint(5, 100)
			inc, dec = g.randrange(10, 100, 5), g.randrange(5, 50, 5)
			// reasoning-gym's test, in floats.
			v := float64(shares * price)
			if isWhole(v*float64(inc)/100) && isWhole(v*(1+float64(inc)/100)*(1-float64(dec)/100)) {
				break
			}
		}
		return fmt.Sprintf("%s buys %d shares of a stock for $%d each. The stock price increases %d%% the first year %s holds it, then decreases %d%% in the second year. What is the final value of all %s's shares?",
			name, shares, price, inc, name, dec, name), float64(shares * price * (100 + inc) * (100 - dec) / 10000)
	},
	95: func(g gsmRand) (string, float64) {
		name1 := g.choice("A father", "A grandfather", "An uncle")
		name2 := g.choice("his wife", "his partner", "his spouse")
		relation := g.choice("daughter", "son", "grandchild")
		food := g.choice("pizzas", "burritos", "tacos", "sushi rolls", "hamburgers")
		n1, n2, n3 := g.randint(2, 9), g.randint(2, 9), g.randint(2, 9)
		period, days := "week", 7
		if g.rng.IntN(2) == 1 {
			period, days = "month", 30
		}
		return fmt.Sprintf("%s eats %d %s per day, %s eats %d %s per day, and their %s eats %d %s per day. How many %s does this family eat in one %s?",
			name1, n1, food, name2, n2, food, relation, n3, food, food, period), float64((n1 + n2 + n3) * days)
	},
	96: func(g gsmRand) (string, float64) {
		name := g.choice("John", "Michael", "David", "James", "Robert", "William", "Richard")
		food := g.choice("hay", "grain", "feed", "silage")
		a := g.sample(2, "goat", "cow", "horse", "donkey", "llama", "alpaca", "pig", "turkey", "duck")
		unit := g.choice("pounds", "kilograms", "kg")
		n1, n2 := g.randint(3, 15), g.randint(1, 10)
		for 2*n1-n2 <= 0 {
			n1, n2 = g.randint(3, 15), g.randint(1, 10)
		}
		k1, k2 := g.randint(10, 50), g.randint(10, 50)
		return fmt.Sprintf("%s is feeding his livestock %s. Each %s needs %d %s, and each %s needs %d %s less than twice the amount each %s needs. If there are %d %ss and %d %ss, how many %s of %s does %s need?",
			name, food, a[0], n1, unit, a[1], n2, unit, a[0], k1, a[0], k2, a[1], unit, food, name), float64(k1*n1 + k2*(2*n1-n2))
	},
	99: func(g gsmRand) (string, float64) {
		name := g.choice("David", "John", "Michael", "James", "William", "Robert")
		cur := g.choice("$", "€", "£")
		item := g.choice("screw", "nail", "washer", "nut", "anchor")
		store := g.choice("hardware", "home improvement", "construction supply")
		q := g.randint(15, 60)
		price := round2(0.01 + 0.99*g.rng.Float64())
		left := g.randint(1, 100)
		// reasoning-gym answers int(initial - cost) in floats, one less than
		// left when the float error falls below; Quarry answers left.
		return fmt.Sprintf("%s has %s%.2f and wants to buy %d %ss from a bin at the %s store. Each %s costs %s%.2f. How much money does %s have left after paying for the %ss?",
			name, cur, float64(q)*price+float64(left), q, item, store, item, cur, price, name, item), float64(left)
	},
}

// gsmPorted lists gsmTemplates' indices in order: what an item draws from.
var gsmPorted = slices.Sorted(maps.Keys(gsmTemplates))

// round2 is Python's round(x, 2).
func round2(x float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return f
}

// isWhole is Python's float.is_integer.
func isWhole(x float64) bool { return x == math.Trunc(x) }

func gcd(a, b int) int { return int(gcd64(int64(a), int64(b))) }

// gsmFormat is reasoning-gym's format_number: an integer as such, else at
// most two decimals without trailing zeros.
func gsmFormat(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := strings.TrimRight(strconv.FormatFloat(v, 'f', 2, 64), "0")
	return strings.TrimSuffix(s, ".")
}

var gsmSymbolicTask = rg.Task[GSMSymbolicOptions]{
	Name:        "gsm_symbolic",
	Description: "reasoning-gym gsm_symbolic: a grade-school word problem from one of GSM-Symbolic's templates with fresh names and numbers; answer the number.",
	Revision:    1,
	Defaults:    GSMSymbolicOptions{Difficulty: 1},
	Generate: func(rng *rand.Rand, o GSMSymbolicOptions) (rg.Item, error) {
		idx := gsmPorted[rng.IntN(len(gsmPorted))]
		q, v := gsmTemplates[idx](gsmRand{rng})
		return rg.Item{
			Question: q + " Give the result as your final answer. Do not include units.",
			Answer:   gsmFormat(v),
			Data:     v,
			Meta:     map[string]any{"template": idx, "answer_value": v, "difficulty": o.Difficulty},
		}, nil
	},
	Score: scoreGSM,
	Guess: func(rng *rand.Rand, it *rg.Item) string { return guessNear(rng, strconv.Itoa(int(it.Data.(float64)))) },
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		x, ok := gsmNumber(answer)
		switch {
		case !ok:
			return "Your answer has no number."
		case x > it.Data.(float64):
			return "Your answer is too high."
		}
		return "Your answer is too low."
	},
}

// gsmNumberPattern is reasoning-gym's `\b-?\d+(?:\.\d+)?\b` with thousands
// separators allowed.
var gsmNumberPattern = regexp.MustCompile(`-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?`)

// gsmNumber reads the answer's first number, as reasoning-gym does.
func gsmNumber(answer string) (float64, bool) {
	if len(answer) > maxAnswerLen {
		return 0, false
	}
	m := gsmNumberPattern.FindString(answer)
	if m == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
	return f, err == nil
}

// scoreGSM is reasoning-gym's: the answer's first number equal to the value
// scores 1, another number 0.01, no number 0. Quarry also reads thousands
// separators ("1,200", which reasoning-gym reads as 1) and a leading minus
// (reasoning-gym's \b skips it). Like reasoning-gym it compares with the
// reference as printed (at most two decimals).
func scoreGSM(answer string, it *rg.Item) float64 {
	x, ok := gsmNumber(answer)
	if !ok {
		return 0
	}
	v, _ := strconv.ParseFloat(it.Answer, 64)
	if math.Abs(x-v) <= 1e-9*math.Max(1, math.Abs(v)) {
		return 1
	}
	return 0.01
}
