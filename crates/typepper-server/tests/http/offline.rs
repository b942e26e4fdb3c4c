//! What the browser's game needs to play with no network, served as it must be: each
//! language's word list and quotes under their immutable names, and the service worker
//! that keeps them and the game.

use axum::http::{StatusCode, header};
use typepper_engine::Language;
use typepper_engine::words::checksum;

use super::support::Server;

#[tokio::test]
async fn each_word_list_is_served_under_its_checksum_and_cached_for_good() {
    let srv = Server::new().await;
    // English's too: the browser's wasm carries none.
    for language in Language::ALL {
        let path = format!("/words/{}", language.file_name());
        let list = srv.get(&path).await;
        assert_eq!(list.status, StatusCode::OK, "{path}");
        assert_eq!(
            list.header(header::CONTENT_TYPE),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(
            list.header(header::CACHE_CONTROL),
            Some("public, max-age=31536000, immutable")
        );
        assert_eq!(checksum(&list.body), language.checksum(), "{path}");
        let want = if language == Language::English10k {
            10_000
        } else {
            1_000
        };
        assert_eq!(list.text().lines().count(), want, "{path}");
    }
}

#[tokio::test]
async fn a_word_list_under_any_other_name_is_not_found() {
    let srv = Server::new().await;
    let fr = Language::French.file_name();
    // A list of other rules: its checksum is another's.
    let stale = format!("/words/fr.{:016x}.txt", Language::French.checksum() ^ 1);
    for path in [
        stale,
        "/words/fr.txt".into(),
        format!("/words/{}", fr.to_uppercase()),
        format!("/words/{fr}x"),
        format!("/words/%2e%2e/{fr}"),
        "/words/".into(),
        "/words/xx.0000000000000000.txt".into(),
    ] {
        assert_eq!(srv.get(&path).await.status, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn the_service_worker_is_javascript_from_the_root_and_never_cached_long() {
    let srv = Server::new().await;
    assert_eq!(
        srv.get("/sw.js").await.status,
        StatusCode::NOT_FOUND,
        "no build, no worker"
    );
    let script = "const BUILD = \"0123456789abcdef\";\n";
    let pkg = srv.state.config.static_dir.join("web/pkg");
    std::fs::write(pkg.join("sw.js"), script).unwrap();
    let sw = srv.get("/sw.js").await;
    assert_eq!(sw.status, StatusCode::OK);
    assert_eq!(sw.text(), script);
    assert_eq!(
        sw.header(header::CONTENT_TYPE),
        Some("text/javascript; charset=utf-8")
    );
    // Revalidated at every update check: a new build's worker is found at once.
    assert_eq!(sw.header(header::CACHE_CONTROL), Some("no-cache"));
    // At the root, its scope is the whole game with no Service-Worker-Allowed.
    assert_eq!(sw.header("service-worker-allowed"), None);
}

#[tokio::test]
async fn each_quote_corpus_is_served_under_its_checksum_and_cached_for_good() {
    use typepper_engine::quotes;
    let srv = Server::new().await;
    for language in quotes::LANGUAGES {
        let name = quotes::file_name(language).expect("a corpus");
        let path = format!("/quotes/{name}");
        let corpus = srv.get(&path).await;
        assert_eq!(corpus.status, StatusCode::OK, "{path}: {}", corpus.text());
        assert_eq!(
            corpus.header(header::CONTENT_TYPE),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(
            corpus.header(header::CACHE_CONTROL),
            Some("public, max-age=31536000, immutable")
        );
        // The bytes the browser installs: the ones the rules were frozen with.
        assert_eq!(Some(checksum(&corpus.body)), quotes::checksum(language));
        let passages = quotes::passages(language).expect("every corpus");
        assert_eq!(corpus.text().lines().count(), passages.len(), "{path}");
    }
}

#[tokio::test]
async fn a_quote_corpus_under_any_other_name_is_not_found() {
    use typepper_engine::quotes;
    let srv = Server::new().await;
    let de = quotes::file_name(Language::German).expect("a corpus");
    let sum = quotes::checksum(Language::German).expect("a corpus");
    for path in [
        // A corpus of other rules: its checksum is another's.
        format!("/quotes/de.{:016x}.txt", sum ^ 1),
        "/quotes/de.txt".into(),
        format!("/quotes/{}", de.to_uppercase()),
        format!("/quotes/{de}x"),
        format!("/quotes/%2e%2e/{de}"),
        "/quotes/".into(),
        // A language with words but no quotes, by its word list's name.
        format!("/quotes/{}", Language::French.file_name()),
        format!("/words/{de}"),
    ] {
        assert_eq!(srv.get(&path).await.status, StatusCode::NOT_FOUND, "{path}");
    }
}
