use grundy::control::{Budget, Limits};
use grundy::heap::rules::HeapRule;
use grundy::misere::quotient::heap_quotient;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args[1] == "scan" {
        let n: u64 = args[2].parse().unwrap();
        for a in 0..8 { for b in 0..8 { for c in 0..8 {
            if a + b + c == 0 { continue; }
            let code = format!("0.{a}{b}{c}");
            let rule = HeapRule::parse(&code).unwrap();
            let t = Instant::now();
            let r = heap_quotient(&rule, n, &Budget::new(Limits { max_work: 200_000_000, ..Limits::DEFAULT }), 5000);
            let el = t.elapsed().as_secs_f64();
            if el > 0.2 { println!("{code} {:?} {el:.2}s", r.map(|q| q.quotient.order())); }
        }}}
        return;
    }
    let rule = HeapRule::parse(&args[1]).unwrap();
    let n: u64 = args[2].parse().unwrap();
    let t = Instant::now();
    let q = heap_quotient(&rule, n, &Budget::default(), 5000).unwrap();
    println!("order {} p {:?} orders {:?} map {:?} period {:?} in {:?}", q.quotient.order(), q.quotient.p_portion(), q.orders, q.heap_map, q.period(), t.elapsed());
}
