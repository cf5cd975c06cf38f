//! The pages' static files, compiled into the server and served under `/static/`: the board
//! page's ES modules (`static/page/`, one part each: the board, the connection, the clocks,
//! the panels, the review…), the puzzles page's script, the shared board (`board.js`,
//! `board.css`) and players (`players.js`). No build step: the browser loads the modules as
//! they are written.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Every file by its path under `static/`.
const FILES: &[(&str, &str)] = &[
    ("board.css", include_str!("static/board.css")),
    ("board.js", include_str!("static/board.js")),
    ("page/address.js", include_str!("static/page/address.js")),
    ("page/clocks.js", include_str!("static/page/clocks.js")),
    (
        "page/connection.js",
        include_str!("static/page/connection.js"),
    ),
    ("page/draw.js", include_str!("static/page/draw.js")),
    (
        "page/evaluation.js",
        include_str!("static/page/evaluation.js"),
    ),
    ("page/explorer.js", include_str!("static/page/explorer.js")),
    ("page/main.js", include_str!("static/page/main.js")),
    ("page/moves.js", include_str!("static/page/moves.js")),
    ("page/names.js", include_str!("static/page/names.js")),
    ("page/page.css", include_str!("static/page/page.css")),
    ("page/page.js", include_str!("static/page/page.js")),
    ("page/pointer.js", include_str!("static/page/pointer.js")),
    ("page/position.js", include_str!("static/page/position.js")),
    ("page/practice.js", include_str!("static/page/practice.js")),
    ("page/review.js", include_str!("static/page/review.js")),
    ("page/rules.js", include_str!("static/page/rules.js")),
    ("page/setup.js", include_str!("static/page/setup.js")),
    ("page/sound.js", include_str!("static/page/sound.js")),
    ("players.js", include_str!("static/players.js")),
    ("puzzles.js", include_str!("static/puzzles.js")),
];

/// The file at `path` under `static/` and its content type, if there is one.
pub fn find(path: &str) -> Option<(&'static str, &'static str)> {
    let (_, text) = FILES.iter().find(|(name, _)| *name == path)?;
    let css = std::path::Path::new(path)
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("css"));
    let kind = if css {
        "text/css; charset=utf-8"
    } else {
        "text/javascript; charset=utf-8"
    };
    Some((kind, text))
}

/// `GET /static/PATH`: the file, or 404.
pub async fn serve(Path(path): Path<String>) -> Response {
    match find(&path) {
        Some((kind, text)) => ([(header::CONTENT_TYPE, kind)], text).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_under_static_is_served_and_nothing_else() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/static");
        let mut on_disk = Vec::new();
        for entry in walk(&dir) {
            on_disk.push(
                entry
                    .strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
            );
        }
        on_disk.sort();
        let mut served: Vec<String> = FILES.iter().map(|(name, _)| (*name).to_string()).collect();
        served.sort();
        assert_eq!(served, on_disk);
        assert_eq!(
            find("page/main.js").unwrap().0,
            "text/javascript; charset=utf-8"
        );
        assert_eq!(find("board.css").unwrap().0, "text/css; charset=utf-8");
        for missing in ["", "page", "../lib.rs", "page/../board.js", "nope.js"] {
            assert!(find(missing).is_none(), "{missing}");
        }
    }

    /// The modules `path` imports (`import … from "./x.js"`), as paths under `static/`.
    fn imports(path: &str, text: &str) -> Vec<String> {
        let dir: Vec<&str> = path.split('/').collect();
        let dir = &dir[..dir.len() - 1];
        text.lines()
            .filter(|line| line.starts_with("import "))
            .filter_map(|line| line.split(" from \"").nth(1)?.split('"').next())
            .map(|target| {
                let mut parts: Vec<&str> = dir.to_vec();
                for part in target.split('/') {
                    match part {
                        "." => {}
                        ".." => {
                            parts.pop();
                        }
                        _ => parts.push(part),
                    }
                }
                parts.join("/")
            })
            .collect()
    }

    #[test]
    fn the_modules_import_one_another_in_one_direction() {
        let graph: Vec<(&str, Vec<String>)> = FILES
            .iter()
            .filter(|(name, _)| {
                std::path::Path::new(name)
                    .extension()
                    .is_some_and(|ext| ext.eq_ignore_ascii_case("js"))
            })
            .map(|(name, text)| (*name, imports(name, text)))
            .collect();
        // Every import is a served file.
        for (name, targets) in &graph {
            for target in targets {
                assert!(find(target).is_some(), "{name} imports {target}");
            }
        }
        assert!(
            graph.iter().any(|(name, targets)| *name == "page/draw.js"
                && targets.contains(&"page/moves.js".to_string())),
            "the imports are read: {graph:?}"
        );
        let mut done = Vec::new();
        for (name, _) in &graph {
            visit(name, &graph, &mut Vec::new(), &mut done);
        }
    }

    /// Depth-first from `name`: a module met again on the path is a circle.
    fn visit<'a>(
        name: &'a str,
        graph: &'a [(&'a str, Vec<String>)],
        path: &mut Vec<&'a str>,
        done: &mut Vec<&'a str>,
    ) {
        if let Some(at) = path.iter().position(|n| *n == name) {
            panic!(
                "a circle of imports: {}",
                path[at..].join(" → ") + " → " + name
            );
        }
        if done.contains(&name) {
            return;
        }
        path.push(name);
        let targets = graph.iter().find(|(n, _)| *n == name).map(|(_, t)| t);
        for target in targets.into_iter().flatten() {
            visit(target, graph, path, done);
        }
        path.pop();
        done.push(name);
    }

    fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                found.extend(walk(&path));
            } else {
                found.push(path);
            }
        }
        found
    }
}
