//! An rmcp client and server in one process, over an in-memory pipe.

use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt};

/// An rmcp client connected in process to `server`, which runs on a task
/// of its own until the client goes.
pub async fn connect<S: ServerHandler>(server: S) -> RunningService<RoleClient, ()> {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.unwrap()
}
