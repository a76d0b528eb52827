use grundy::control::Budget;
use grundy::heap::rules::HeapRule;
use grundy::misere::quotient::heap_quotient;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule = HeapRule::parse(&args[1]).unwrap();
    let n: u64 = args[2].parse().unwrap();
    let t = Instant::now();
    let q = heap_quotient(&rule, n, &Budget::default(), 5000).unwrap();
    println!("order {} p {:?} orders {:?} map {:?} period {:?} in {:?}", q.quotient.order(), q.quotient.p_portion(), q.orders, q.heap_map, q.period(), t.elapsed());
}
