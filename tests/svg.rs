//! The SVG pictures: well-formed XML, self-contained, the right queens, marks and arrows on the
//! right squares, titles that state the value and the proof, and sensible large boards.

mod support;

use queens::board::Square;
use queens::format::{parse_mark_grid, parse_position, parse_weight_grid, svg};
use queens::guard::{self, Rule};
use queens::{repair, weight, Options};
use roxmltree::{Document, Node};
use std::collections::BTreeSet;
use support::{queens_with_input, Rng};

fn parse(doc: &str) -> Document<'_> {
    let parsed = Document::parse(doc).unwrap_or_else(|e| panic!("not well-formed XML: {e}"));
    let root = parsed.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    // Self-contained: nothing refers outside the document.
    for node in parsed.descendants().filter(Node::is_element) {
        for attr in node.attributes() {
            assert!(
                !attr.value().contains("http") || attr.name() == "xmlns",
                "external reference in {}={}",
                attr.name(),
                attr.value()
            );
            assert_ne!(attr.name(), "href", "no links");
        }
        assert_ne!(node.tag_name().name(), "script");
        assert_ne!(node.tag_name().name(), "image");
    }
    parsed
}

fn has_class(node: &Node, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|k| k == class))
}

/// The elements of `class` under `scope`.
fn with_class<'a>(scope: Node<'a, 'a>, class: &str) -> Vec<Node<'a, 'a>> {
    scope
        .descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .collect()
}

fn squares_of(nodes: &[Node]) -> BTreeSet<Square> {
    nodes
        .iter()
        .map(|n| {
            let (r, c) = n
                .attribute("data-square")
                .and_then(|s| s.split_once(','))
                .expect("data-square");
            Square::new(r.parse().unwrap(), c.parse().unwrap())
        })
        .collect()
}

fn board<'a>(doc: &'a Document<'a>, kind: &str) -> Node<'a, 'a> {
    doc.descendants()
        .find(|n| has_class(n, "board") && has_class(n, kind))
        .unwrap_or_else(|| panic!("no board {kind}"))
}

fn title(doc: &Document) -> String {
    let node = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .expect("a <title>");
    node.text().unwrap_or_default().to_string()
}

fn texts(scope: Node) -> Vec<String> {
    scope
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_string))
        .collect()
}

#[test]
fn a_4x4_weight_answer_shows_its_queens_numbers_and_coordinates() {
    // The best 4-queens placement here is the one through the 9s (sum 36).
    let text = "1 9 1 1\n1 1 1 9\n9 1 1 1\n1 1 9 1\n";
    let grid = parse_weight_grid(text).unwrap();
    let placement = weight::best(&grid, &Options::default()).unwrap();
    let doc_text = svg::weight(&grid, &placement);
    let doc = parse(&doc_text);
    let queens = with_class(doc.root(), "queen");
    let expected: BTreeSet<Square> = [(0, 1), (1, 3), (2, 0), (3, 2)]
        .into_iter()
        .map(|(r, c)| Square::new(r, c))
        .collect();
    assert_eq!(squares_of(&queens), expected);
    assert_eq!(title(&doc), "weight 4x4: best sum 36 (proven optimal)");
    let b = board(&doc, "weight");
    let shown = texts(b);
    // 16 numbers, then the files a..d and the ranks 4..1.
    assert_eq!(shown.iter().filter(|t| *t == "9").count(), 4);
    assert_eq!(shown.iter().filter(|t| *t == "1").count(), 12 + 1);
    for label in ["a", "b", "c", "d", "2", "3", "4"] {
        assert!(shown.iter().any(|t| t == label), "label {label}");
    }
    // The squares are shaded by value: the 9s share one colour, the 1s another.
    let fills: BTreeSet<&str> = b
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("width") == n.attribute("height"))
        .filter_map(|n| n.attribute("fill"))
        .collect();
    assert!(fills.len() >= 3, "{fills:?}");
}

#[test]
fn an_unproven_weight_answer_says_so() {
    let grid = parse_weight_grid(&weights(20, 4)).unwrap();
    let options = Options {
        time_limit: Some(std::time::Duration::ZERO),
        ..Options::default()
    };
    let placement = weight::best(&grid, &options).unwrap();
    let doc_text = svg::weight(&grid, &placement);
    let doc = parse(&doc_text);
    if !placement.optimal {
        assert_eq!(
            title(&doc),
            format!(
                "weight 20x20: best sum {} (best found; upper bound {})",
                placement.sum, placement.bound
            )
        );
    }
    assert_eq!(with_class(doc.root(), "queen").len(), 20);
}

fn weights(n: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            (0..n)
                .map(|_| rng.range(1, 99).to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

#[test]
fn a_repair_picture_has_both_positions_and_one_numbered_arrow_per_move() {
    let text = "........\n.....q..\n.q......\n........\n....q...\nq.......\n......qq\n...q...q\n";
    let position = parse_position(text).unwrap();
    let plan = repair::solve(&position, &Options::default()).unwrap();
    assert_eq!(plan.moves, 4);
    let doc_text = svg::repair(&position, &plan);
    let doc = parse(&doc_text);
    assert_eq!(
        title(&doc),
        "repair 8x8: 4 moves (proven optimal); relaxed 3"
    );
    let start = board(&doc, "start");
    let end = board(&doc, "final");
    assert_eq!(
        squares_of(&with_class(start, "queen")),
        position.queens.iter().copied().collect()
    );
    assert_eq!(
        squares_of(&with_class(end, "queen")),
        plan.final_queens.iter().copied().collect()
    );
    let arrows = with_class(start, "move");
    assert_eq!(arrows.len(), 4);
    for (k, (arrow, mv)) in arrows.iter().zip(&plan.plan).enumerate() {
        assert_eq!(
            arrow.attribute("id"),
            Some(format!("move-{}", k + 1).as_str())
        );
        let from = format!("{},{}", mv.from.row, mv.from.col);
        let to = format!("{},{}", mv.to.row, mv.to.col);
        assert_eq!(arrow.attribute("data-from"), Some(from.as_str()));
        assert_eq!(arrow.attribute("data-to"), Some(to.as_str()));
    }
    let numbers = with_class(start, "move-number");
    let shown: Vec<String> = numbers.iter().flat_map(|n| texts(*n)).collect();
    assert_eq!(shown, ["1", "2", "3", "4"]);
    // The final board tints the squares the plan filled.
    let arrived = with_class(end, "arrived").len();
    let moved_in = plan
        .final_queens
        .iter()
        .filter(|q| !position.queens.contains(q))
        .count();
    assert_eq!(arrived, moved_in);
}

#[test]
fn an_unproven_repair_states_its_bound() {
    let mut rng = Rng(9);
    let n = 32;
    let mut text = String::new();
    for _ in 0..n {
        let c = rng.below(n as u64);
        text.push_str(
            &(0..n)
                .map(|k| if k == c { 'q' } else { '.' })
                .collect::<String>(),
        );
        text.push('\n');
    }
    let position = parse_position(&text).unwrap();
    let options = Options {
        time_limit: Some(std::time::Duration::ZERO),
        ..Options::default()
    };
    let plan = repair::solve(&position, &options).unwrap();
    let doc_text = svg::repair(&position, &plan);
    let doc = parse(&doc_text);
    let t = title(&doc);
    if plan.optimal {
        assert!(t.contains("(proven optimal)"), "{t}");
    } else {
        assert!(
            t.contains(&format!(
                "(best found; at least {} needed)",
                plan.lower_bound
            )),
            "{t}"
        );
    }
    assert_eq!(with_class(doc.root(), "move").len(), plan.moves);
    assert_eq!(with_class(board(&doc, "final"), "queen").len(), 32);
    // More than 26 columns: 0-based numbers on the edges, no chess files.
    let labels = texts(board(&doc, "start"));
    assert!(labels.iter().any(|t| t == "0") && !labels.iter().any(|t| t == "a"));
}

#[test]
fn a_guard_picture_marks_covers_and_queens() {
    let text = "XX......X.\nX....X....\n..X.......\n.......XX.\n...X......\n.X......X.\n..........\n....XX....\n";
    let marks = parse_mark_grid(text).unwrap();
    let guards = guard::solve(&marks, Rule::Any, &Options::default()).unwrap();
    let doc_text = svg::guard(&marks, &guards);
    let doc = parse(&doc_text);
    let b = board(&doc, "guard");
    let marked: BTreeSet<Square> = (0..marks.rows)
        .flat_map(|r| (0..marks.cols).map(move |c| Square::new(r, c)))
        .filter(|s| marks.is_marked(s.row, s.col))
        .collect();
    assert_eq!(squares_of(&with_class(b, "mark")), marked);
    assert_eq!(
        squares_of(&with_class(b, "queen")),
        guards.queens.iter().copied().collect()
    );
    let count = guards.queens.len();
    assert_eq!(
        title(&doc),
        format!("guard 8x10: {count} queens guard 13 marked squares (proven optimal)")
    );
    // Covered squares are shaded green, the others grey.
    let green = b
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter(|n| {
            n.attribute("fill").is_some_and(|f| {
                let byte = |k: usize| u8::from_str_radix(&f[k..k + 2], 16).unwrap_or(0);
                f.len() == 7 && f.starts_with('#') && byte(3) > byte(1).saturating_add(20)
            })
        })
        .count();
    assert!(green > 13, "{green} green squares");
}

#[test]
fn solutions_are_drawn_by_the_same_module() {
    let run = queens_with_input(&["solutions", "6", "--format", "svg"], b"");
    assert_eq!(run.code, 0);
    let doc = parse(&run.stdout);
    let boards: Vec<Node> = doc
        .descendants()
        .filter(|n| has_class(n, "solution"))
        .collect();
    assert_eq!(boards.len(), 4);
    for b in &boards {
        assert_eq!(with_class(*b, "queen").len(), 6);
    }
    assert_eq!(title(&doc), "6-queens: 4 solutions, 1 to 4");
    assert_eq!(
        run.stdout,
        svg::solutions(
            &[
                vec![1, 3, 5, 0, 2, 4],
                vec![2, 5, 1, 4, 0, 3],
                vec![3, 0, 4, 1, 5, 2],
                vec![4, 2, 0, 5, 3, 1]
            ],
            1
        )
    );
}

#[test]
fn the_command_line_draws_every_answer_and_checks_its_format_options() {
    let cases: [(&str, &str); 3] = [
        ("weight", "1 9 1 1\n1 1 1 9\n9 1 1 1\n1 1 9 1\n"),
        ("repair", "q...\nq...\nq...\nq...\n"),
        ("guard", "X.X\n.X.\n"),
    ];
    for (command, input) in cases {
        let run = queens_with_input(&[command, "--format", "svg"], input.as_bytes());
        assert_eq!(run.code, 0, "{}", run.stderr);
        parse(&run.stdout);
        let json = queens_with_input(&[command, "--format", "json"], input.as_bytes());
        let short = queens_with_input(&[command, "--json"], input.as_bytes());
        let strip = |s: &str| {
            let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("seconds");
            o.remove("nodes");
            v
        };
        assert_eq!(strip(&json.stdout), strip(&short.stdout));
        // --json with another --format is a usage error; with --format json it agrees.
        let both = queens_with_input(&[command, "--json", "--format", "svg"], input.as_bytes());
        assert_eq!(both.code, 2);
        assert!(both.stderr.starts_with("error:"), "{}", both.stderr);
        let same = queens_with_input(&[command, "--json", "--format", "json"], input.as_bytes());
        assert_eq!(same.code, 0);
    }
}

#[test]
fn large_boards_degrade_sensibly() {
    // Numbers on squares up to 24 x 24, none above.
    for (n, numbered) in [(24, true), (25, false), (64, false)] {
        let grid = parse_weight_grid(&weights(n, n as u64)).unwrap();
        let options = Options {
            time_limit: Some(std::time::Duration::from_millis(200)),
            ..Options::default()
        };
        let placement = weight::best(&grid, &options).unwrap();
        let doc_text = svg::weight(&grid, &placement);
        let doc = parse(&doc_text);
        assert_eq!(with_class(doc.root(), "queen").len(), n);
        assert_eq!(
            !with_class(doc.root(), "weights").is_empty(),
            numbered,
            "{n}"
        );
        let width: f64 = doc
            .root_element()
            .attribute("width")
            .unwrap()
            .parse()
            .unwrap();
        assert!((300.0..=1400.0).contains(&width), "{n}: width {width}");
    }
    // Wide guard boards: files while they fit in a..z, numbers beyond.
    for (rows, cols) in [(3, 26), (3, 27), (64, 64)] {
        let text = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| if (r + c) % 5 == 0 { 'X' } else { '.' })
                    .collect::<String>()
                    + "\n"
            })
            .collect::<String>();
        let marks = parse_mark_grid(&text).unwrap();
        let options = Options {
            time_limit: Some(std::time::Duration::from_millis(200)),
            ..Options::default()
        };
        let guards = guard::solve(&marks, Rule::Any, &options).unwrap();
        let doc_text = svg::guard(&marks, &guards);
        let doc = parse(&doc_text);
        let labels = texts(board(&doc, "guard"));
        assert_eq!(labels.iter().any(|t| t == "z"), cols == 26, "{rows}x{cols}");
        assert_eq!(
            with_class(doc.root(), "mark").len(),
            marks.marked.iter().filter(|&&m| m).count()
        );
    }
}

/// A number attribute of `node`.
fn attr(node: &Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("no {name} on {:?}", node.tag_name().name()))
        .parse()
        .unwrap_or_else(|_| panic!("{name} is not a number"))
}

/// The top-left corner and square size of an `n` x `n` board: its first `<rect>` is the whole
/// board.
fn board_geometry(board: Node, n: usize) -> (f64, f64, f64) {
    let rect = board
        .descendants()
        .find(|d| d.has_tag_name("rect"))
        .expect("the board's rect");
    let width = attr(&rect, "width");
    assert!((width - attr(&rect, "height")).abs() < 1e-9);
    (attr(&rect, "x"), attr(&rect, "y"), width / n as f64)
}

/// The box a queen's crown is drawn in (its `translate(x y) scale(k)` over a 100 x 100 design
/// whose two crowns keep within x 4..96, y 10..92): left, top, right, bottom.
fn crown_box(queen: &Node) -> (f64, f64, f64, f64) {
    let t = queen.attribute("transform").expect("a transform");
    let numbers: Vec<f64> = t
        .replace(['(', ')'], " ")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let (x, y, k) = (numbers[0], numbers[1], numbers[2]);
    (x + 4.0 * k, y + 10.0 * k, x + 96.0 * k, y + 92.0 * k)
}

fn distance_to_box((x, y): (f64, f64), (l, t, r, b): (f64, f64, f64, f64)) -> f64 {
    let dx = (l - x).max(x - r).max(0.0);
    let dy = (t - y).max(y - b).max(0.0);
    (dx * dx + dy * dy).sqrt()
}

/// Checks a repair picture: no two move arrows lie on one stretch of line, every move number's
/// disc keeps clear of every queen's crown and of the other numbers and stays on the board,
/// every move ends in a ring on its target square, and an arrow whose target holds no queen shows
/// at least 0.45 of a square outside the crowns.
fn check_repair_picture(doc_text: &str, n: usize, case: &str) {
    let doc = parse(doc_text);
    let start = board(&doc, "start");
    let (x0, y0, cell) = board_geometry(start, n);
    let crowns: Vec<(f64, f64, f64, f64)> =
        with_class(start, "queen").iter().map(crown_box).collect();
    let queens = squares_of(&with_class(start, "queen"));
    let centre = |s: &str| {
        let (r, c) = s.split_once(',').unwrap();
        let (r, c): (f64, f64) = (r.parse().unwrap(), c.parse().unwrap());
        (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell)
    };
    // Each arrow: its shaft's start, its head's tip, its width.
    let mut arrows = Vec::new();
    for mv in with_class(start, "move") {
        let line = mv.descendants().find(|d| d.has_tag_name("line")).unwrap();
        let head = mv
            .descendants()
            .find(|d| d.has_tag_name("polygon"))
            .unwrap();
        let tip: Vec<f64> = head
            .attribute("points")
            .unwrap()
            .split([' ', ','])
            .map(|v| v.parse().unwrap())
            .collect();
        let from = (attr(&line, "x1"), attr(&line, "y1"));
        let to = (tip[0], tip[1]);
        arrows.push((from, to, attr(&line, "stroke-width")));
        let target = centre(mv.attribute("data-to").unwrap());
        let ring = with_class(mv, "landing");
        assert_eq!(ring.len(), 1, "{case}: one landing ring per move");
        let (rx, ry, rr) = (
            attr(&ring[0], "cx"),
            attr(&ring[0], "cy"),
            attr(&ring[0], "r"),
        );
        assert!(
            (rx - target.0).abs() < 0.3 * cell
                && (ry - target.1).abs() < 0.3 * cell
                && rr >= 0.15 * cell,
            "{case}: the ring of {:?} is off its target",
            mv.attribute("id")
        );
        let (r, c) = mv.attribute("data-to").unwrap().split_once(',').unwrap();
        if !queens.contains(&Square::new(r.parse().unwrap(), c.parse().unwrap())) {
            let steps = 400;
            let outside = (0..steps)
                .filter(|&i| {
                    let t = (i as f64 + 0.5) / steps as f64;
                    let p = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
                    crowns.iter().all(|&b| distance_to_box(p, b) > 0.0)
                })
                .count() as f64;
            let length = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
            assert!(
                length * outside / steps as f64 >= 0.45 * cell,
                "{case}: {:?} shows {:.1} px outside the queens (square {cell})",
                mv.attribute("id"),
                length * outside / steps as f64
            );
        }
    }
    for (i, &(a0, a1, wa)) in arrows.iter().enumerate() {
        for (j, &(b0, b1, wb)) in arrows.iter().enumerate().skip(i + 1) {
            let (ux, uy) = (a1.0 - a0.0, a1.1 - a0.1);
            let len = (ux * ux + uy * uy).sqrt();
            let (ux, uy) = (ux / len, uy / len);
            let (vx, vy) = (b1.0 - b0.0, b1.1 - b0.1);
            let parallel = (ux * vy - uy * vx).abs() < 1e-6 * (vx * vx + vy * vy).sqrt();
            if !parallel {
                continue;
            }
            // The sideways distance between the two lines, and the stretch both cover.
            let side = ((b0.0 - a0.0) * -uy + (b0.1 - a0.1) * ux).abs();
            let along = |p: (f64, f64)| (p.0 - a0.0) * ux + (p.1 - a0.1) * uy;
            let (p, q) = (along(b0).min(along(b1)), along(b0).max(along(b1)));
            let shared = q.min(len) - p.max(0.0);
            assert!(
                side >= (wa + wb) / 2.0 || shared <= 1.0,
                "{case}: moves {} and {} lie on one another ({side:.1} px apart over {shared:.1} px)",
                i + 1,
                j + 1
            );
        }
    }
    let discs: Vec<(f64, f64, f64)> = with_class(start, "move-number")
        .iter()
        .map(|g| {
            let c = g.descendants().find(|d| d.has_tag_name("circle")).unwrap();
            (attr(&c, "cx"), attr(&c, "cy"), attr(&c, "r"))
        })
        .collect();
    assert_eq!(discs.len(), arrows.len());
    for (k, &(x, y, r)) in discs.iter().enumerate() {
        for b in &crowns {
            assert!(
                distance_to_box((x, y), *b) >= r - 0.01,
                "{case}: number {} lies on a queen",
                k + 1
            );
        }
        for &(x2, y2, r2) in &discs[k + 1..] {
            assert!(
                ((x - x2).powi(2) + (y - y2).powi(2)).sqrt() >= r + r2 - 0.01,
                "{case}: numbers overlap"
            );
        }
        let side = n as f64 * cell;
        assert!(
            x > x0 && x < x0 + side && y > y0 && y < y0 + side,
            "{case}: number {} off the board",
            k + 1
        );
    }
}

#[test]
fn repair_arrows_keep_apart_and_their_numbers_keep_off_the_queens() {
    // Solved boards: the README's, and random ones (one queen in each row, in its first three
    // columns, so that many moves run along the rows and some are one square long).
    let mut boards = vec![std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/board.txt"),
    )
    .unwrap()];
    let mut rng = Rng(35);
    for n in [6, 8, 8, 10, 12, 32] {
        boards.push(
            (0..n)
                .map(|_| {
                    let c = rng.below(3);
                    (0..n)
                        .map(|k| if k == c { 'q' } else { '.' })
                        .collect::<String>()
                        + "\n"
                })
                .collect(),
        );
    }
    let options = Options {
        time_limit: Some(std::time::Duration::from_secs(2)),
        ..Options::default()
    };
    for text in &boards {
        let position = parse_position(text).unwrap();
        let plan = repair::solve(&position, &options).unwrap();
        check_repair_picture(&svg::repair(&position, &plan), plan.n, text);
    }
    // A drawn plan (the picture draws any list of moves): three moves up and down column a, one
    // square moves in every direction, and a chain along column h whose third move shares a
    // stretch only with the second.
    let text = "....q...\n..q.....\n.....q..\n........\n...q....\n........\n.q...q..\nq......q\n";
    let position = parse_position(text).unwrap();
    let mv = |a: (usize, usize), b: (usize, usize)| queens::problem::Move {
        from: Square::new(a.0, a.1),
        to: Square::new(b.0, b.1),
    };
    let moves = vec![
        mv((7, 0), (3, 0)),
        mv((3, 0), (5, 0)),
        mv((5, 0), (0, 0)),
        mv((4, 3), (3, 3)),
        mv((6, 1), (5, 2)),
        mv((6, 5), (6, 6)),
        mv((7, 7), (3, 7)),
        mv((3, 7), (1, 7)),
        mv((1, 7), (6, 7)),
        mv((6, 7), (7, 7)),
    ];
    let mut plan = repair::solve(&position, &options).unwrap();
    plan.moves = moves.len();
    plan.plan = moves;
    check_repair_picture(&svg::repair(&position, &plan), 8, "the drawn plan");
}

/// The relative luminance of `#rrggbb`, 0 to 255.
fn luminance(colour: &str) -> f64 {
    let byte = |k: usize| f64::from(u8::from_str_radix(&colour[k..k + 2], 16).unwrap());
    0.2126 * byte(1) + 0.7152 * byte(3) + 0.0722 * byte(5)
}

#[test]
fn coverage_shading_reads_on_a_board_with_every_square_marked() {
    let marks = parse_mark_grid(&"XXXXXXXX\n".repeat(8)).unwrap();
    let guards = guard::solve(&marks, Rule::Any, &Options::default()).unwrap();
    let doc_text = svg::guard(&marks, &guards);
    let doc = parse(&doc_text);
    let b = board(&doc, "guard");
    let (x0, y0, cell) = board_geometry(b, 8);
    let queens: Vec<Square> = squares_of(&with_class(b, "queen")).into_iter().collect();
    let covers = |q: &Square, r: usize, c: usize| {
        q.row == r || q.col == c || q.row.abs_diff(r) == q.col.abs_diff(c)
    };
    // The fill of every square, by how many queens cover it (counted here).
    let mut by_level: std::collections::BTreeMap<usize, BTreeSet<String>> = Default::default();
    let mut seen = 0;
    for rect in b.descendants().filter(|d| d.has_tag_name("rect")) {
        if (attr(&rect, "width") - cell).abs() > 1e-6 || rect.attribute("class").is_some() {
            continue;
        }
        let r = ((attr(&rect, "y") - y0) / cell).round() as usize;
        let c = ((attr(&rect, "x") - x0) / cell).round() as usize;
        let level = queens.iter().filter(|q| covers(q, r, c)).count();
        by_level
            .entry(level)
            .or_default()
            .insert(rect.attribute("fill").unwrap().to_string());
        seen += 1;
    }
    assert_eq!(seen, 64, "one rect per square");
    assert!(!by_level.contains_key(&0), "every square is covered");
    // One colour per level, and neighbouring levels clearly apart.
    let mut previous: Option<f64> = None;
    for (level, fills) in &by_level {
        assert_eq!(fills.len(), 1, "level {level} is drawn in {fills:?}");
        let l = luminance(fills.iter().next().unwrap());
        if let Some(p) = previous {
            assert!(
                p - l >= 24.0,
                "level {level}: luminance {l:.0} after {p:.0}"
            );
        }
        previous = Some(l);
    }
    // The legend names each level with its colour.
    let legend = with_class(doc.root(), "legend");
    assert_eq!(legend.len(), 1);
    let most = *by_level.keys().last().unwrap();
    let swatches = with_class(legend[0], "level");
    assert_eq!(swatches.len(), most);
    for s in swatches {
        let level: usize = s.attribute("data-level").unwrap().parse().unwrap();
        if let Some(fills) = by_level.get(&level) {
            assert!(
                fills.contains(s.attribute("fill").unwrap()),
                "legend {level}"
            );
        }
    }
    // The 64 marks are there but faint and small.
    let marks = with_class(b, "mark");
    assert_eq!(marks.len(), 64);
    for m in marks {
        let opacity: f64 = m.attribute("opacity").map_or(1.0, |o| o.parse().unwrap());
        assert!(opacity <= 0.5, "a mark drawn at opacity {opacity}");
        assert!(attr(&m, "stroke-width") <= 0.05 * cell, "a heavy mark");
    }
}

/// The weight picture of an `n x n` grid of weights drawn by `weight` (row by row), solved
/// for at most 300 ms.
fn weight_picture(n: usize, mut weight: impl FnMut() -> i64) -> String {
    let text: String = (0..n)
        .map(|_| {
            (0..n)
                .map(|_| weight().to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let grid = parse_weight_grid(&text).unwrap();
    let options = Options {
        time_limit: Some(std::time::Duration::from_millis(300)),
        ..Options::default()
    };
    let placement = weight::best(&grid, &options).unwrap();
    svg::weight(&grid, &placement)
}

#[test]
fn numbers_on_boards_up_to_24_stay_readable() {
    // Weights 1..=99 on the largest numbered boards: every number not under a queen at least
    // 10 px high at the picture's own size, and on squares under 40 px at least 0.4 of the
    // square (so that the board shown smaller still reads).
    let mut rng = Rng(24);
    for n in [8usize, 16, 20, 21, 24] {
        let doc_text = weight_picture(n, || 1 + rng.below(99) as i64);
        let doc = parse(&doc_text);
        let b = board(&doc, "weight");
        let (_, _, cell) = board_geometry(b, n);
        let group = with_class(b, "weights");
        assert_eq!(group.len(), 1, "{n}: numbers shown");
        let size = attr(&group[0], "font-size");
        assert!(size >= 10.0, "{n}: numbers at {size} px");
        assert!(
            cell >= 40.0 || size >= 0.4 * cell,
            "{n}: numbers at {size} px in {cell} px squares"
        );
        assert!(2.0 * 0.6 * size <= 0.9 * cell, "{n}: two digits overflow");
    }
}

#[test]
fn numbers_of_up_to_six_digits_and_negative_ones_fit_their_squares() {
    let mut rng = Rng(36);
    let pool = [999_999i64, -99_999, 123_456, -5, 42, 100_000, 7, -123_456];
    for n in [4usize, 8, 12, 16, 20] {
        let doc_text = weight_picture(n, || pool[rng.below(pool.len() as u64)]);
        let doc = parse(&doc_text);
        let b = board(&doc, "weight");
        let (_, _, cell) = board_geometry(b, n);
        let group = with_class(b, "weights");
        assert_eq!(group.len(), 1, "{n}: numbers shown");
        let group_size = attr(&group[0], "font-size");
        let numbers: Vec<Node> = group[0]
            .children()
            .filter(|c| c.has_tag_name("text"))
            .collect();
        assert_eq!(numbers.len(), n * n);
        for t in numbers {
            let size = t
                .attribute("font-size")
                .map_or(group_size, |s| s.parse().unwrap());
            let chars = t.text().unwrap().chars().count() as f64;
            // A digit or minus sign of sans-serif is at most 0.6 of the font size wide.
            assert!(
                chars * 0.6 * size <= 0.9 * cell,
                "{n}: {} at {size} px overflows a {cell} px square",
                t.text().unwrap()
            );
            assert!(size >= 4.0, "{n}: {size} px is too small to read");
        }
    }
}
