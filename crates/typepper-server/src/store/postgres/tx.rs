//! PostgreSQL's [`Tx`]: statements prepared once a connection, and batches sent as one
//! statement each over arrays, all of a call's in one round trip (tokio-postgres sends
//! the requests of futures polled together before reading an answer, and PostgreSQL runs
//! them in the order sent).

use std::future::Future;

use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::{Counts, db};
use crate::store::StoreError;
use crate::store::tx::{Arg, Batch, Cell, Column, Dialect, Row, Tx};

/// Where a [`PgTx`]'s statements go.
#[derive(Clone, Copy)]
pub enum On<'t> {
    /// A connection of the pool's, outside a transaction: each statement commits alone.
    Pool(&'t deadpool_postgres::Object),
    /// A transaction.
    Tx(&'t deadpool_postgres::Transaction<'t>),
}

/// A statement's parameters.
type Params<'a> = [&'a (dyn ToSql + Sync)];

impl On<'_> {
    /// The rows `sql` returns.
    async fn query(
        self,
        sql: &str,
        params: &Params<'_>,
    ) -> Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
        match self {
            On::Pool(c) => query(c, sql, params).await,
            On::Tx(c) => query(c, sql, params).await,
        }
    }

    /// Runs `sql`; how many rows it changed.
    async fn execute(self, sql: &str, params: &Params<'_>) -> Result<u64, tokio_postgres::Error> {
        match self {
            On::Pool(c) => execute(c, sql, params).await,
            On::Tx(c) => execute(c, sql, params).await,
        }
    }

    /// Runs `sql`, with no parameters, as it is: never prepared.
    async fn batch_execute(self, sql: &str) -> Result<(), tokio_postgres::Error> {
        match self {
            On::Pool(c) => c.batch_execute(sql).await,
            On::Tx(c) => c.batch_execute(sql).await,
        }
    }
}

/// [`On::query`], on a client.
async fn query(
    c: &impl GenericClient,
    sql: &str,
    params: &Params<'_>,
) -> Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
    let s = c.prepare_cached(sql).await?;
    c.query(&s, params).await
}

/// [`On::execute`], on a client.
async fn execute(
    c: &impl GenericClient,
    sql: &str,
    params: &Params<'_>,
) -> Result<u64, tokio_postgres::Error> {
    let s = c.prepare_cached(sql).await?;
    c.execute(&s, params).await
}

/// A connection of the pool's, or a transaction, as a [`Tx`]; counting its statements
/// and round trips if it is a writer's.
pub struct PgTx<'t> {
    on: On<'t>,
    counts: Option<&'t Counts>,
    /// A statement to send ahead of the next ones, in their round trip.
    lead: Option<&'static str>,
}

impl<'t> PgTx<'t> {
    /// Statements on `on`, not counted.
    pub fn new(on: On<'t>) -> PgTx<'t> {
        PgTx {
            on,
            counts: None,
            lead: None,
        }
    }

    /// A writer's: its statements counted.
    pub(super) fn counted(on: On<'t>, counts: &'t Counts) -> PgTx<'t> {
        PgTx {
            counts: Some(counts),
            ..PgTx::new(on)
        }
    }

    /// Sends `sql` (a savepoint) ahead of the next statements, in their round trip.
    pub(super) fn lead(&mut self, sql: &'static str) {
        self.lead = Some(sql);
    }

    /// Runs `work`, which sends `statements` at once, after the lead if there is one: all
    /// of it one round trip.
    async fn sent<T>(
        &mut self,
        statements: usize,
        work: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, StoreError> {
        let (on, lead) = (self.on, self.lead.take());
        let lead_sent = async move {
            match lead {
                Some(sql) => on.batch_execute(sql).await,
                None => Ok(()),
            }
        };
        // Polled in this order, the lead goes first.
        let ((), done) = tokio::try_join!(lead_sent, work).map_err(db)?;
        let statements = statements + usize::from(lead.is_some());
        if let Some(counts) = self.counts.filter(|_| statements > 0) {
            counts.sent(statements);
        }
        Ok(done)
    }
}

/// `ToSql` for an enum of values, each of which checks its own column's type.
macro_rules! each_checks_its_type {
    ($what:ident: $($variant:ident),*) => {
        impl ToSql for $what<'_> {
            fn to_sql(
                &self,
                ty: &tokio_postgres::types::Type,
                out: &mut bytes::BytesMut,
            ) -> Result<tokio_postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
            {
                match self {
                    $($what::$variant(v) => v.to_sql_checked(ty, out),)*
                }
            }

            fn accepts(_: &tokio_postgres::types::Type) -> bool {
                true
            }

            tokio_postgres::types::to_sql_checked!();
        }
    };
}

// A statement's parameter: a scalar.
each_checks_its_type!(Arg: I32, I64, Bool, Text, MaybeText, MaybeI32, Bytes, Ids);
// A batch's column: an array, checked against its column's array type.
each_checks_its_type!(Column: I32, I64, Text, MaybeText, MaybeI32, Bytes);

/// The parameters of a statement.
fn params<T: ToSql + Sync>(args: &[T]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

impl Tx for PgTx<'_> {
    const DIALECT: Dialect = Dialect {
        for_update: " FOR UPDATE",
        in_ids: "= ANY($1)",
        expired_runs: "created_ms < $1
                       AND NOT EXISTS (SELECT 1 FROM bests WHERE bests.run_id = runs.id)",
        no_limit: "",
    };

    async fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, StoreError> {
        let on = self.on;
        self.sent(1, async move { on.execute(sql, &params(args)).await })
            .await
    }

    async fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, StoreError> {
        let on = self.on;
        let rows = self
            .sent(1, async move { on.query(sql, &params(args)).await })
            .await?;
        rows.iter().map(row).collect()
    }

    async fn batches(&mut self, batches: &[Batch<'_>]) -> Result<Vec<Vec<Row>>, StoreError> {
        let on = self.on;
        let each = batches.iter().map(|batch| async move {
            match batch.rows() {
                0 => Ok(vec![]),
                _ => on.query(batch.arrays, &params(&batch.columns)).await,
            }
        });
        let statements = batches.iter().filter(|b| b.rows() > 0).count();
        let answers = self
            .sent(statements, futures_util::future::try_join_all(each))
            .await?;
        answers
            .iter()
            .map(|rows| rows.iter().map(row).collect())
            .collect()
    }
}

/// A PostgreSQL row as [`Cell`]s, by each column's type.
fn row(r: &tokio_postgres::Row) -> Result<Row, StoreError> {
    use tokio_postgres::types::Type;
    let cells = r.columns().iter().enumerate().map(|(i, column)| {
        let cell = match *column.type_() {
            Type::INT4 => r.try_get::<_, Option<i32>>(i)?.map(|v| Cell::Int(v.into())),
            Type::INT8 => r.try_get::<_, Option<i64>>(i)?.map(Cell::Int),
            Type::BOOL => r
                .try_get::<_, Option<bool>>(i)?
                .map(|v| Cell::Int(v.into())),
            Type::BYTEA => r.try_get::<_, Option<Vec<u8>>>(i)?.map(Cell::Bytes),
            _ => r.try_get::<_, Option<String>>(i)?.map(Cell::Text),
        };
        Ok(cell.unwrap_or(Cell::Null))
    });
    cells
        .collect::<Result<_, tokio_postgres::Error>>()
        .map(Row)
        .map_err(db)
}
