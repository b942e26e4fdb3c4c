//! One player on many devices (issue 42): a linked device shows a one-time code, another
//! claims it and is the same player; the player lists their devices and removes any. And
//! what an attacker tries: guessing codes, a used code again, an expired one, one from a
//! device since removed, one for a banned player, a removed device's token.

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use typepper_api::devices::{CODE_ALPHABET, CODE_MS};
use typepper_engine::Mode;

use super::support::{DEC_10, Reply, Server, entry, from_ip, request};

/// `method path` as the device with `token`, with `body` as JSON if any.
async fn as_device(
    srv: &Server,
    method: Method,
    path: &str,
    token: &str,
    body: Option<serde_json::Value>,
) -> Reply {
    let req = request(method, path).header(header::AUTHORIZATION, format!("Bearer {token}"));
    let req = match body {
        Some(json) => req
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(json.to_string())),
        None => req.body(Body::empty()),
    };
    srv.send(req.expect("a request")).await
}

/// `DELETE /v1/devices/<id>` from the device with `token`.
async fn remove(srv: &Server, token: &str, id: &str) -> StatusCode {
    let path = format!("/v1/devices/{id}");
    as_device(srv, Method::DELETE, &path, token, None)
        .await
        .status
}

/// A new code from the device with `token`.
async fn code(srv: &Server, token: &str) -> serde_json::Value {
    let reply = as_device(srv, Method::POST, "/v1/devices/code", token, None).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
    reply.json()
}

/// `POST /v1/devices/claim` of `code`, from the address `ip`, for a device called `name`.
async fn claim_from(srv: &Server, code: &str, name: &str, ip: [u8; 4]) -> Reply {
    let body = serde_json::json!({ "code": code, "device": name }).to_string();
    let req = request(Method::POST, "/v1/devices/claim")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("a request");
    srv.send(from_ip(req, ip)).await
}

async fn claim(srv: &Server, code: &str, name: &str) -> Reply {
    claim_from(srv, code, name, [192, 0, 2, 1]).await
}

/// The devices the device with `token` lists: (name, this).
async fn listed(srv: &Server, token: &str) -> Vec<(String, bool)> {
    let reply = as_device(srv, Method::GET, "/v1/devices", token, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let json = reply.json();
    (json["devices"].as_array().expect("devices").iter())
        .map(|d| {
            let name = d["name"].as_str().expect("a name").to_owned();
            (name, d["this"].as_bool().expect("this"))
        })
        .collect()
}

/// The id the device called `name` goes by, as the device with `token` lists it.
async fn id_of(srv: &Server, token: &str, name: &str) -> String {
    let json = as_device(srv, Method::GET, "/v1/devices", token, None)
        .await
        .json();
    let devices = json["devices"].as_array().expect("devices");
    let found = devices.iter().find(|d| d["name"] == name).expect(name);
    found["id"].as_str().expect("an id").to_owned()
}

#[tokio::test]
async fn a_second_device_claims_a_code_and_is_the_same_player() {
    for srv in Server::each(|_| {}).await {
        let laptop = {
            let body = serde_json::json!({ "name": "ada", "device": "Firefox on Linux" });
            let reply = srv.post_player(&body.to_string()).await;
            reply.json()["token"].as_str().expect("a token").to_owned()
        };
        let shown = code(&srv, &laptop).await;
        let typed = shown["code"].as_str().expect("a code");
        assert!(typed.len() == 8 && typed.bytes().all(|b| CODE_ALPHABET.contains(&b)));
        assert_eq!(
            shown["link"],
            format!("http://typepper.test/?device={typed}"),
            "the link carries it"
        );
        assert_eq!(shown["expires_ms"], DEC_10 + CODE_MS);
        let qr = shown["qr"].as_array().expect("a QR code");
        assert!(
            qr.len() >= 25
                && qr
                    .iter()
                    .all(|r| r.as_str().map(str::len) == Some(qr.len()))
        );

        // Typed as a person might: lower case, in two halves.
        let spaced = format!("{} {}", &typed[..4], &typed[4..]).to_lowercase();
        let reply = claim(&srv, &spaced, "Pixel phone").await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
        let phone = reply.json();
        assert_eq!(phone["name"], "ada");
        let phone = phone["token"].as_str().expect("a token").to_owned();
        assert_ne!(phone, laptop);

        // Both are ada: the phone's runs are hers, and each lists both, itself marked.
        let round = srv
            .ranked(&phone, Mode::BLITZ_15, &Default::default())
            .await;
        let lines = srv.submit_lines(&phone, entry(&round)).await;
        let typepper_api::Line::Ok { id, .. } = &lines[0] else {
            panic!("{lines:?}")
        };
        let run = srv.get(&format!("/v1/runs/{id}")).await;
        assert_eq!(run.header(typepper_api::PLAYER_HEADER), Some("ada"));
        assert_eq!(
            listed(&srv, &laptop).await,
            [
                ("Firefox on Linux".into(), true),
                ("Pixel phone".into(), false)
            ]
        );
        assert_eq!(
            listed(&srv, &phone).await,
            [
                ("Firefox on Linux".into(), false),
                ("Pixel phone".into(), true)
            ]
        );
    }
}

#[tokio::test]
async fn a_used_code_an_expired_one_and_a_removed_devices_are_refused() {
    for srv in Server::each(|_| {}).await {
        let laptop = srv.link("ada").await;
        let refused = "no such code, or it was used, or it expired";

        // Replaying a used code.
        let shown = code(&srv, &laptop).await;
        let typed = shown["code"].as_str().expect("a code");
        let phone = claim(&srv, typed, "phone").await;
        assert_eq!(phone.status, StatusCode::CREATED);
        let phone = phone.json()["token"].as_str().expect("a token").to_owned();
        let again = claim(&srv, typed, "tablet").await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);
        assert!(again.text().starts_with(refused), "{}", again.text());

        // A code past its ten minutes.
        let late = code(&srv, &laptop).await;
        srv.later(CODE_MS);
        let reply = claim(&srv, late["code"].as_str().expect("a code"), "tablet").await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text());

        // A code the phone asked for, then the phone removed from the laptop: the code
        // goes with it, and the phone's token stops at once, told why.
        let phone_token = {
            let shown = code(&srv, &laptop).await;
            let reply = claim(&srv, shown["code"].as_str().expect("a code"), "phone 2").await;
            reply.json()["token"].as_str().expect("a token").to_owned()
        };
        let from_phone = code(&srv, &phone_token).await;
        let id = id_of(&srv, &laptop, "phone 2").await;
        assert_eq!(remove(&srv, &laptop, &id).await, StatusCode::NO_CONTENT);
        let reply = claim(&srv, from_phone["code"].as_str().expect("a code"), "x").await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text());
        let seed = srv.post_seed(&phone_token, "time:15").await;
        assert_eq!(seed.status, StatusCode::UNAUTHORIZED);
        assert!(
            seed.text().contains("this device was removed"),
            "{}",
            seed.text()
        );
        // Removed once is removed: again, or another player's device, is no device.
        assert_eq!(remove(&srv, &laptop, &id).await, StatusCode::NOT_FOUND);
        let bob = srv.link("bob").await;
        let ada_laptop = id_of(&srv, &laptop, "a device").await;
        assert_eq!(remove(&srv, &bob, &ada_laptop).await, StatusCode::NOT_FOUND);
        assert_eq!(
            srv.post_seed(&laptop, "time:15").await.status,
            StatusCode::CREATED
        );

        // A player may remove the device they are on: it is then a stranger.
        assert_eq!(
            remove(&srv, &laptop, &ada_laptop).await,
            StatusCode::NO_CONTENT
        );
        assert_eq!(
            srv.post_seed(&laptop, "time:15").await.status,
            StatusCode::UNAUTHORIZED
        );

        // But not the last one: the account would be out of reach for good.
        let last = id_of(&srv, &phone, "phone").await;
        let path = format!("/v1/devices/{last}");
        let refused = as_device(&srv, Method::DELETE, &path, &phone, None).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text());
        assert!(refused.text().contains("last device"), "{}", refused.text());
        assert_eq!(
            srv.post_seed(&phone, "time:15").await.status,
            StatusCode::CREATED
        );
    }
}

#[tokio::test]
async fn a_banned_players_code_adds_no_device() {
    for srv in Server::each(|_| {}).await {
        let token = srv.link("ada").await;
        let shown = code(&srv, &token).await;
        assert!(
            srv.state
                .store
                .ban_player("ada".into())
                .await
                .unwrap()
                .is_some()
        );
        // The ban took its codes: the one shown is told as any wrong code, and no new
        // one is given.
        let reply = claim(&srv, shown["code"].as_str().expect("a code"), "phone").await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text());
        let ask = as_device(&srv, Method::POST, "/v1/devices/code", &token, None).await;
        assert_eq!(ask.status, StatusCode::FORBIDDEN, "{}", ask.text());
    }
}

#[tokio::test]
async fn guessing_codes_is_limited_per_address_and_asking_for_them_per_player() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let shown = code(&srv, &token).await;
    let real = shown["code"].as_str().expect("a code");
    // A guesser's address gets a burst of tries, then waits; the right code from there
    // waits too, and from anywhere else works.
    let guesser = [198, 51, 100, 7];
    let mut tries = 0;
    loop {
        let reply = claim_from(&srv, "AAAA2222", "bot", guesser).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            break;
        }
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text());
        tries += 1;
        assert!(tries <= 10, "guesses go on past a burst");
    }
    assert_eq!(tries, 10);
    let blocked = claim_from(&srv, real, "bot", guesser).await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS);
    let reply = claim_from(&srv, real, "phone", [203, 0, 113, 9]).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
    // Words that can't be a code are refused as a wrong code is: nothing to learn.
    for junk in ["", "x", "AAAA22220", "OOOO1111", "' OR 1=1 --"] {
        let reply = claim_from(&srv, junk, "bot", [203, 0, 113, 10]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{junk:?}");
    }
    let body = claim_body_refused(&srv).await;
    assert_eq!(body.status, StatusCode::BAD_REQUEST);
    assert!(body.text().contains("\"code\""), "{}", body.text());

    // A player holds at most three live codes, and asks for at most six at once.
    let mut statuses = vec![];
    for _ in 0..6 {
        let reply = as_device(&srv, Method::POST, "/v1/devices/code", &token, None).await;
        statuses.push(reply.status);
    }
    assert_eq!(
        statuses,
        [
            StatusCode::CREATED,
            StatusCode::CREATED,
            StatusCode::CREATED
        ]
        .into_iter()
        .chain([StatusCode::CONFLICT; 2])
        .chain([StatusCode::TOO_MANY_REQUESTS])
        .collect::<Vec<_>>(),
        "one shown before, three live, then refused, then limited"
    );
}

/// A claim whose body is no claim.
async fn claim_body_refused(srv: &Server) -> Reply {
    let req = request(Method::POST, "/v1/devices/claim")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{\"cod\": 1}"))
        .expect("a request");
    srv.send(from_ip(req, [203, 0, 113, 11])).await
}
