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
