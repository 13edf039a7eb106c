//! Clique answers: cliquer's result lines and plain vertex lists, both with DIMACS (1-based)
//! vertex numbers, returned as 0-based node ids.
//!
//! cliquer (`cliquer -q -q g.dimacs`) prints one line per clique found:
//! `size=4, weight=4:   1 2 3 4`. A plain vertex list is whitespace-separated vertex numbers
//! over any number of lines, with `#` or `c ` comments.

use crate::error::InputError;

/// Parse cliquer's stdout: one or more `size=K, weight=W: v1 … vK` lines (blank lines are
/// allowed, nothing else). Returns the largest clique (the first among equals), 0-based and in
/// the order printed. Vertices must lie in `1..=num_vertices`, appear once, and number `K`.
pub fn parse_cliquer(
    text: &str,
    source: &str,
    num_vertices: usize,
) -> Result<Vec<usize>, InputError> {
    let mut best: Option<Vec<usize>> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        let Some(rest) = t.strip_prefix("size=") else {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "expected a cliquer result line 'size=K, weight=W: v1 v2 …', found {:?}",
                    shorten(t)
                ),
            ));
        };
        let (size, rest) = rest.split_once(',').unwrap_or((rest, ""));
        let size: usize = size.trim().parse().map_err(|_| {
            InputError::at(
                source,
                line,
                format!("{:?} is not a clique size", shorten(size.trim())),
            )
        })?;
        let Some((_, vertices)) = rest.split_once(':') else {
            return Err(InputError::at(
                source,
                line,
                "no ':' before the vertex list: expected 'size=K, weight=W: v1 v2 …'",
            ));
        };
        // The size is untrusted: a huge one must not become a huge allocation.
        let mut clique = Vec::with_capacity(size.min(num_vertices));
        read_vertices(vertices, source, line, num_vertices, &mut clique)?;
        if clique.len() != size {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "the line says size={size} but lists {} vertices",
                    clique.len()
                ),
            ));
        }
        if best.as_ref().is_none_or(|b| clique.len() > b.len()) {
            best = Some(clique);
        }
    }
    best.ok_or_else(|| {
        InputError::whole(
            source,
            "no clique in the output: expected a line 'size=K, weight=W: v1 v2 …'",
        )
    })
}

/// Parse a plain list of 1-based vertex numbers (any whitespace, `#` comments, lines starting
/// with `c` as in DIMACS comments). An empty list is a valid, empty clique.
pub fn parse_vertex_list(
    text: &str,
    source: &str,
    num_vertices: usize,
) -> Result<Vec<usize>, InputError> {
    let mut clique = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("").trim();
        if body == "c" || body.starts_with("c ") || body.starts_with("c\t") {
            continue;
        }
        read_vertices(body, source, i + 1, num_vertices, &mut clique)?;
    }
    Ok(clique)
}

/// Either format: cliquer's output when a non-blank line starts with `size=`, else a plain
/// vertex list.
pub fn parse(text: &str, source: &str, num_vertices: usize) -> Result<Vec<usize>, InputError> {
    if text.lines().any(|l| l.trim_start().starts_with("size=")) {
        parse_cliquer(text, source, num_vertices)
    } else {
        parse_vertex_list(text, source, num_vertices)
    }
}

/// Append the vertices of `text` (1-based) to `out` as 0-based ids, checking range and repeats.
fn read_vertices(
    text: &str,
    source: &str,
    line: usize,
    num_vertices: usize,
    out: &mut Vec<usize>,
) -> Result<(), InputError> {
    for tok in text.split_whitespace() {
        let v: usize = tok.parse().map_err(|_| {
            InputError::at(
                source,
                line,
                format!("{:?} is not a vertex number", shorten(tok)),
            )
        })?;
        if v == 0 || v > num_vertices {
            return Err(InputError::at(
                source,
                line,
                format!("vertex {v} is out of range: the graph has vertices 1 to {num_vertices}"),
            ));
        }
        if out.contains(&(v - 1)) {
            return Err(InputError::at(
                source,
                line,
                format!("vertex {v} is listed twice"),
            ));
        }
        out.push(v - 1);
    }
    Ok(())
}

/// At most 40 characters of `s`, for messages about garbage.
fn shorten(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cliquer_lines() {
        assert_eq!(
            parse_cliquer("size=3, weight=3:   1 5 2 \n", "o", 5).unwrap(),
            vec![0, 4, 1]
        );
        // Several cliques (-a): the largest wins.
        assert_eq!(
            parse_cliquer("size=1, weight=1: 4\n\nsize=2, weight=2: 2 3\n", "o", 5).unwrap(),
            vec![1, 2]
        );
        assert_eq!(parse("size=2, weight=2: 2 3", "o", 3).unwrap(), vec![1, 2]);
    }

    #[test]
    fn vertex_lists() {
        assert_eq!(
            parse("c best clique\n3 1\n# note\n2 # tail\n", "l", 3).unwrap(),
            vec![2, 0, 1]
        );
        assert_eq!(parse("", "l", 3).unwrap(), Vec::<usize>::new());
    }

    #[test]
    fn errors_name_the_line() {
        let e = |t: &str| parse(t, "out.txt", 5).unwrap_err().to_string();
        assert_eq!(
            e("size=2, weight=2: 1 2\nSegmentation fault\n"),
            "out.txt:2: expected a cliquer result line 'size=K, weight=W: v1 v2 …', found \"Segmentation fault\""
        );
        assert_eq!(
            e("size=x, weight=2: 1 2\n"),
            "out.txt:1: \"x\" is not a clique size"
        );
        assert_eq!(
            e("size=2, weight=2 1 2\n"),
            "out.txt:1: no ':' before the vertex list: expected 'size=K, weight=W: v1 v2 …'"
        );
        assert_eq!(
            e("size=3, weight=3: 1 2\n"),
            "out.txt:1: the line says size=3 but lists 2 vertices"
        );
        assert_eq!(
            e("\n\n1 2 6\n"),
            "out.txt:3: vertex 6 is out of range: the graph has vertices 1 to 5"
        );
        assert_eq!(
            e("0\n"),
            "out.txt:1: vertex 0 is out of range: the graph has vertices 1 to 5"
        );
        assert_eq!(e("1 2\n2\n"), "out.txt:2: vertex 2 is listed twice");
        assert_eq!(e("1 two\n"), "out.txt:1: \"two\" is not a vertex number");
        assert_eq!(
            parse_cliquer("\n", "out.txt", 5).unwrap_err().to_string(),
            "out.txt: no clique in the output: expected a line 'size=K, weight=W: v1 v2 …'"
        );
    }

    #[test]
    fn a_huge_claimed_size_is_an_error_not_an_allocation() {
        assert_eq!(
            parse_cliquer("size=999999999999999, weight=1: 1\n", "out.txt", 5)
                .unwrap_err()
                .to_string(),
            "out.txt:1: the line says size=999999999999999 but lists 1 vertices"
        );
    }
}
