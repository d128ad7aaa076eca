/**
 * The one-line queue stub (README: "Calls before the script has loaded"). Put before the script tag, it
 * defines a stand-in `Referloop` whose methods queue their calls; the script replays them when it runs.
 */
export const QUEUE_STUB =
  '<script>!function(w,r){r=w.Referloop=w.Referloop||{q:[]};"init identify getReferralLink open close on".split(" ").forEach(function(m){r[m]=r[m]||function(){r.q.push([m,arguments])}})}(window)</script>';
