/*
 * The widget's whole stylesheet, inside its shadow root. Sizes in px (rem would follow the host page's
 * root font size). Theme colours arrive as custom properties on .r: --c theme, --cf text on it, --bg and
 * --fg the sheet, --ln lines on the sheet, --t the backdrop tint. In a preview (host[data-preview]) the
 * fixed layers are positioned in the host element instead of the viewport. The reset weighs nothing
 * (:where), so every rule after it wins over it.
 */
export const CSS = `
:host{all:initial}
.r{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);-webkit-font-smoothing:antialiased}
:where(.r *){box-sizing:border-box;margin:0;padding:0;font:inherit;color:inherit;letter-spacing:normal;text-transform:none}
.f{position:fixed;z-index:2147483647}
:host([data-preview]) .f{position:absolute}
button,a{cursor:pointer;border:0;background:none;text-decoration:none;-webkit-tap-highlight-color:transparent}
:focus-visible{outline:3px solid var(--c);outline-offset:2px}
.d :focus-visible,.bn :focus-visible{outline-color:currentColor}
svg{width:22px;height:22px;fill:currentColor;flex:none}
.b{background:var(--c);color:var(--cf);font-weight:600;box-shadow:0 4px 14px rgba(0,0,0,.25)}
.fl{border-radius:999px;padding:12px 20px}
.top-left{top:16px;left:16px}.top-right{top:16px;right:16px}.bottom-left{bottom:16px;left:16px}.bottom-right{bottom:16px;right:16px}
.top-center,.bottom-center{left:0;right:0;margin:0 auto}.top-center{top:16px}.bottom-center{bottom:16px}
.e{writing-mode:vertical-rl;padding:16px 9px;font-size:14px}
.e.top-right,.e.bottom-right{right:0;border-radius:10px 0 0 10px}
.e.top-left,.e.bottom-left{left:0;border-radius:0 10px 10px 0;transform:rotate(180deg)}
.e.top-left,.e.top-right{top:18%}.e.bottom-left,.e.bottom-right{bottom:18%}
.bn{display:flex;gap:10px;align-items:flex-start;width:max-content;max-width:min(440px,calc(100% - 32px));padding:12px 12px 12px 16px;border-radius:12px;background:#18181b;color:#fff;box-shadow:0 8px 30px rgba(0,0,0,.3);animation:fd .2s ease-out}
.bn p{flex:1;min-width:0;overflow-wrap:anywhere;white-space:pre-line}
.bn strong{display:block;font-weight:700}
.lift[class*=top]{top:80px}.lift[class*=bottom]{bottom:80px}
.bn button{flex:none;width:32px;height:32px;margin:-6px -4px 0 0;border-radius:8px;font-size:22px;line-height:1}
.o{inset:0;display:flex;align-items:center;justify-content:center;padding:16px}
.bd{position:absolute;inset:0;background:var(--t)}
.d{position:relative;width:100%;max-width:440px;max-height:100%;overflow:auto;padding:24px;border-radius:16px;background:var(--bg);color:var(--fg);box-shadow:0 20px 60px rgba(0,0,0,.3);animation:zm .18s ease-out}
.dr{align-items:flex-end;padding:0}
.dr .d{max-width:640px;border-radius:16px 16px 0 0;padding-bottom:calc(24px + env(safe-area-inset-bottom,0px));animation:up .22s ease-out}
.hd{width:40px;height:4px;margin:-12px auto 14px;border-radius:2px;background:var(--ln)}
h2{font-size:20px;font-weight:700;line-height:1.3;padding-right:36px;overflow-wrap:anywhere}
.ds{margin-top:6px;opacity:.85;overflow-wrap:anywhere;white-space:pre-line}
.x{position:absolute;top:12px;right:12px;width:36px;height:36px;border-radius:10px;font-size:26px;line-height:1}
.lk{display:flex;flex-wrap:wrap;gap:8px;margin-top:18px}
input{flex:1 1 170px;min-width:0;padding:10px 12px;border:1px solid var(--ln);border-radius:10px;background:transparent;font:14px ui-monospace,SFMono-Regular,Menlo,monospace}
.cp{flex:1 0 auto;padding:10px 16px;border-radius:10px;background:var(--c);color:var(--cf);font-weight:600}
.st{min-height:1.45em;margin-top:6px;font-size:13px;opacity:.85}
ul{display:flex;flex-wrap:wrap;justify-content:center;gap:4px;margin-top:8px;list-style:none}
ul a,ul button{display:flex;flex-direction:column;align-items:center;gap:6px;width:60px;padding:8px 0;border-radius:12px;font-size:12px}
ul span{display:flex;align-items:center;justify-content:center;width:44px;height:44px;border-radius:50%;background:var(--ln)}
h3{font-size:16px;font-weight:700;margin-top:16px}
.tt{display:grid;grid-template-columns:repeat(auto-fit,minmax(84px,1fr));gap:6px;margin-top:12px}
.tt div{padding:8px;border-radius:10px;background:var(--ln)}.tt dt{font-size:12px}.tt dd{font-size:20px;font-weight:700}
.ml{display:flex;flex-direction:column;gap:4px;margin-top:8px}.ml progress{width:100%;accent-color:var(--c)}
.fr{list-style:none;margin-top:8px}.fr li{display:flex;flex-wrap:wrap;justify-content:space-between;gap:2px 12px;padding:6px 0;border-top:1px solid var(--ln)}
.bk{margin-top:16px;width:100%}.d>.cp{margin-top:10px}
@keyframes zm{from{opacity:0;transform:scale(.96)}}
@keyframes up{from{transform:translateY(100%)}}
@keyframes fd{from{opacity:0}}
@media (prefers-reduced-motion:reduce){.r *{animation:none!important;transition:none!important}}
`;
