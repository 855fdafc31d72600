//! `tokio::task::JoinError` and `tokio::time::error::Elapsed` from real
//! tasks: one that panics, one that is aborted, one that outlives its
//! deadline.

use std::time::Duration;

use envelope::Envelope;

#[tokio::test]
async fn a_panicking_task_is_internal_and_its_payload_stays_out() {
    let task = tokio::spawn(async {
        panic!("secret token sk-123 in a panic message");
    });
    let error = task.await.unwrap_err();
    assert!(error.is_panic());
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"INTERNAL","message":"an internal error occurred; changing the call will not help","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"TASK_PANICKED","category":"Technical","effect":"unknown"}"#
    );
}

#[tokio::test]
async fn an_aborted_task_is_cancelled() {
    let task = tokio::spawn(async {
        tokio::time::sleep(Duration::from_secs(60)).await;
    });
    task.abort();
    let error = task.await.unwrap_err();
    assert!(error.is_cancelled());
    assert_eq!(
        error.to_json_string(),
        r#"{"isError":true,"error_class":"CANCELLED","message":"the operation was cancelled before it finished","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"TASK_CANCELLED","category":"Technical","effect":"unknown"}"#
    );
}

#[tokio::test]
async fn a_deadline_is_a_timeout() {
    let elapsed = tokio::time::timeout(
        Duration::from_millis(1),
        tokio::time::sleep(Duration::from_secs(60)),
    )
    .await
    .unwrap_err();
    assert_eq!(
        elapsed.to_json_string(),
        r#"{"isError":true,"error_class":"TIMEOUT","message":"the operation timed out","next_steps":["the call may have taken effect: check its result before repeating it"],"code":"DEADLINE_ELAPSED","category":"Technical","effect":"unknown"}"#
    );
    // Idempotent: the same timeout may be repeated.
    let envelope = elapsed.to_envelope().idempotent();
    assert!(envelope.retryable);
}
