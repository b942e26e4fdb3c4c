//! A player's data (issue 42): the archive of every run the server holds of them, and
//! deleting the account: off the boards and gone from links at once, rows gone a day
//! later, the name free 30 days later. On both backends.

use std::io::Read as _;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use typepper_api::Line;
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use super::support::{DAY, Server, entry, request, typist};

/// `method path` with the token.
async fn with_token(
    srv: &Server,
    method: Method,
    path: &str,
    token: &str,
) -> super::support::Reply {
    let req = request(method, path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .expect("a request");
    srv.send(req).await
}

/// The run id of a submission's one answer line.
fn stored(lines: &[Line]) -> String {
    match &lines[0] {
        Line::Ok { id, .. } => id.clone(),
        other => panic!("not stored: {other:?}"),
    }
}

#[tokio::test]
async fn a_player_exports_every_run_then_deletes_the_account() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let ranked = srv.ranked(&ada, Mode::BLITZ_15, &typist(1, 70)).await;
        let ranked_id = stored(&srv.submit_lines(&ada, entry(&ranked)).await);
        let zen = synth(Mode::ZEN, 5, &Typist::default());
        let zen_id = stored(&srv.submit_lines(&ada, entry(&zen)).await);

        // The archive: each run's bytes as stored, and an index of them.
        let archive = with_token(&srv, Method::GET, "/v1/export", &ada).await;
        assert_eq!(archive.status, StatusCode::OK, "{}", archive.text());
        assert_eq!(
            archive.header(header::CONTENT_TYPE),
            Some("application/x-tar")
        );
        assert_eq!(
            archive.header(header::CONTENT_DISPOSITION),
            Some("attachment; filename=\"typepper-ada.tar\"")
        );
        let mut files = std::collections::BTreeMap::new();
        let mut tar = tar::Archive::new(&archive.body[..]);
        for file in tar.entries().expect("a tar archive") {
            let mut file = file.expect("an entry");
            let name = file.path().expect("a name").display().to_string();
            let mut bytes = vec![];
            file.read_to_end(&mut bytes).expect("its bytes");
            files.insert(name, bytes);
        }
        assert_eq!(files[&format!("runs/{ranked_id}.replay")], ranked.encode());
        assert_eq!(files[&format!("runs/{zen_id}.replay")], zen.encode());
        let index: serde_json::Value = serde_json::from_slice(&files["index.json"]).expect("JSON");
        assert_eq!(index["name"], "ada");
        let runs = index["runs"].as_array().expect("runs");
        assert_eq!(runs.len(), 2);
        let of = |id: &str| runs.iter().find(|r| r["id"] == id).expect(id).clone();
        assert_eq!(
            (
                of(&ranked_id)["mode"].clone(),
                of(&ranked_id)["ranked"].clone()
            ),
            (serde_json::json!("time:15"), serde_json::json!(true))
        );
        assert_eq!(of(&zen_id)["title"], "ZEN");
        assert_eq!(of(&zen_id)["ranked"], false);
        assert_eq!(files.len(), 3, "two runs and the index: {:?}", files.keys());

        // Deleted: off the board and gone from its link at once, every token stopped,
        // the name still held.
        let board = srv.get("/v1/boards/time:15").await.json();
        assert_eq!(board["rows"][0]["name"], "ada");
        let page = srv.get(&format!("/r/{ranked_id}")).await;
        assert_eq!(page.status, StatusCode::OK);
        let deleted = with_token(&srv, Method::DELETE, "/v1/players/me", &ada).await;
        assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text());
        assert_eq!(deleted.json()["name"], "ada");
        for period in ["month", "all", "day"] {
            let board = srv
                .get(&format!("/v1/boards/time:15?period={period}"))
                .await
                .json();
            assert_eq!(board["rows"], serde_json::json!([]), "{period}");
        }
        for id in [&ranked_id, &zen_id] {
            assert_eq!(
                srv.get(&format!("/v1/runs/{id}")).await.status,
                StatusCode::NOT_FOUND
            );
            let gone = srv.get(&format!("/r/{id}")).await;
            assert_eq!(gone.status, StatusCode::NOT_FOUND);
            assert!(
                gone.text().contains("This replay is gone"),
                "{}",
                gone.text()
            );
        }
        assert_eq!(
            srv.post_seed(&ada, "time:15").await.status,
            StatusCode::UNAUTHORIZED
        );
        let again = srv.post_player(r#"{"name": "ada"}"#).await;
        assert_eq!(
            again.status,
            StatusCode::CONFLICT,
            "the name is held 30 days"
        );

        // A day on, the rows are gone but the name's; 30 days on, the name too.
        let rows = |srv: &Server| {
            srv.count("SELECT count(*) FROM runs") + srv.count("SELECT count(*) FROM rounds")
        };
        assert_eq!(rows(&srv), 2 + 2);
        srv.later(DAY + 1);
        assert_eq!(srv.sweep().await.deleted, 1);
        assert_eq!(rows(&srv), 0);
        assert_eq!(
            srv.count("SELECT count(*) FROM players WHERE name = 'ada'"),
            1
        );
        assert_eq!(srv.sweep().await.deleted, 0, "once");
        srv.later(29 * DAY);
        srv.sweep().await;
        assert_eq!(
            srv.count("SELECT count(*) FROM players WHERE name = 'ada'"),
            0
        );
        assert_eq!(
            srv.post_player(r#"{"name": "ada"}"#).await.status,
            StatusCode::CREATED
        );
    }
}

/// The bug a browser found: asked for gzip, as every browser asks, the archive's body was
/// polled once more after its end by the compression layer, and the stream panicked: the
/// connection dropped, the browser asked again, and the player's allowance was spent.
#[tokio::test]
async fn an_archive_asked_for_in_gzip_comes_whole() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let zen = synth(Mode::ZEN, 5, &Typist::default());
    let id = stored(&srv.submit_lines(&ada, entry(&zen)).await);
    let req = request(Method::GET, "/v1/export")
        .header(header::AUTHORIZATION, format!("Bearer {ada}"))
        .header(header::ACCEPT_ENCODING, "gzip")
        .body(Body::empty())
        .expect("a request");
    let archive = srv.send(req).await;
    assert_eq!(archive.status, StatusCode::OK, "{}", archive.text());
    assert_eq!(archive.header(header::CONTENT_ENCODING), Some("gzip"));
    let mut tar = vec![];
    flate2::read::GzDecoder::new(&archive.body[..])
        .read_to_end(&mut tar)
        .expect("gzip");
    let mut names = vec![];
    for file in tar::Archive::new(&tar[..]).entries().expect("a tar") {
        names.push(
            file.expect("an entry")
                .path()
                .expect("a name")
                .display()
                .to_string(),
        );
    }
    assert_eq!(names, [format!("runs/{id}.replay"), "index.json".into()]);
}

#[tokio::test]
async fn exports_are_limited_per_player_and_need_a_player() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let statuses: Vec<StatusCode> = {
        let mut out = vec![];
        for _ in 0..3 {
            out.push(
                with_token(&srv, Method::GET, "/v1/export", &ada)
                    .await
                    .status,
            );
        }
        out
    };
    assert_eq!(
        statuses,
        [
            StatusCode::OK,
            StatusCode::OK,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );
    let none = srv.get("/v1/export").await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    let nobody = with_token(&srv, Method::DELETE, "/v1/players/me", "no such token").await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
}
