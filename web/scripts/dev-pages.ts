// `npm run dev`: Vite's dev server answering page requests with pages rendered on the spot from src/prerender.tsx,
// so edits to components and to content (after `cargo build` rewrites .generated/content.json) show on reload.
import type { Plugin } from 'vite';

export function devPages(): Plugin {
  return {
    name: 'truckins-dev-pages',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const isPage = req.method === 'GET' && !/^\/(@|src\/|node_modules\/|api\/)/.test(url.pathname) && !/\.\w+$/.test(url.pathname);
        const isGenerated = url.pathname === '/blog/search.json' || url.pathname === '/favicon.svg';
        if (!isPage && !isGenerated) return next();
        try {
          const prerender = await server.ssrLoadModule('/src/prerender.tsx');
          const assets = { entry: '/src/client.ts', preload: [] };
          const result = await prerender.renderPath(url.pathname.replace(/(.)\/$/, '$1'), assets);
          if ('html' in result) {
            res.statusCode = result.status;
            res.setHeader('Content-Type', 'text/html; charset=utf-8');
            res.end(await server.transformIndexHtml(url.pathname, result.html));
          } else {
            res.setHeader('Content-Type', result.type);
            res.end(result.text);
          }
        } catch (error) {
          server.ssrFixStacktrace(error as Error);
          next(error);
        }
      });
    },
  };
}
