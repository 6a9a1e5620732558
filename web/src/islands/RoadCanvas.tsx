// The home hero's backdrop: a night highway drawn in perspective, lane markings and reflector posts streaming
// toward the viewer. Phones get a lighter scene (fewer posts, lower resolution, 30 frames a second); it pauses while
// off screen or in a hidden tab.
// Moving content that starts by itself and lasts more than 5 s needs a way to stop it (WCAG 2.2.2): a button in the
// hero's corner pauses and resumes it. With prefers-reduced-motion the scene starts still, one frame, and the button
// offers to play it: the visitor's own choice may still start it. The button appears once script runs (with script
// off nothing moves), placed over the hero's bottom padding, so it shifts nothing.
import { t } from '@i18n/islands';
import { useEffect, useRef, useState } from 'react';
import { Icon } from '../ui/Icon';

interface Scene {
  posts: number;
  speed: number;
  maxPixelRatio: number;
  frameMs: number;
}

const DESKTOP: Scene = { posts: 14, speed: 9, maxPixelRatio: 2, frameMs: 1000 / 60 };
const PHONE: Scene = { posts: 7, speed: 6, maxPixelRatio: 1.5, frameMs: 1000 / 30 };
const FAR = 60; // the farthest distance drawn, in the same units as the lane dash spacing

export default function RoadCanvas() {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // null until the scene is running in the browser (no button before: it would do nothing), then whether it is paused.
  const [paused, setPaused] = useState<boolean | null>(null);
  const pause = useRef<(paused: boolean) => void>(() => {});

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const phone = window.matchMedia('(max-width: 767px)');
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
    let scene = phone.matches ? PHONE : DESKTOP;
    let travelled = 0;
    let frame = 0;
    let last = 0;
    let visible = true;
    let stopped = reducedMotion.matches;

    const resize = () => {
      scene = phone.matches ? PHONE : DESKTOP;
      const ratio = Math.min(window.devicePixelRatio || 1, scene.maxPixelRatio);
      canvas.width = Math.round(canvas.clientWidth * ratio);
      canvas.height = Math.round(canvas.clientHeight * ratio);
      draw();
    };

    const draw = () => {
      const { width: w, height: h } = canvas;
      const horizon = h * 0.42;
      const centre = w * (phone.matches ? 0.5 : 0.62);
      const roadHalf = w * 0.55; // half the road's width at distance 1 (the bottom edge)
      // Screen position of a point at distance d (1 = bottom of the canvas) and lateral offset x (in road halves).
      const y = (d: number) => horizon + (h - horizon) / d;
      const x = (d: number, lateral: number) => centre + (lateral * roadHalf) / d;

      const sky = context.createLinearGradient(0, 0, 0, horizon);
      sky.addColorStop(0, '#07172a');
      sky.addColorStop(1, '#1c3d63');
      context.fillStyle = sky;
      context.fillRect(0, 0, w, horizon);
      const ground = context.createLinearGradient(0, horizon, 0, h);
      ground.addColorStop(0, '#0d2135');
      ground.addColorStop(1, '#081522');
      context.fillStyle = ground;
      context.fillRect(0, horizon, w, h - horizon);

      // The road surface.
      context.fillStyle = '#2a323b';
      context.beginPath();
      context.moveTo(x(FAR, -1), y(FAR));
      context.lineTo(x(FAR, 1), y(FAR));
      context.lineTo(x(0.6, 1), y(0.6));
      context.lineTo(x(0.6, -1), y(0.6));
      context.fill();

      // Edge lines.
      context.strokeStyle = 'rgba(235, 240, 245, 0.75)';
      context.lineWidth = Math.max(1, w / 600);
      for (const side of [-0.95, 0.95]) {
        context.beginPath();
        context.moveTo(x(FAR, side), y(FAR));
        context.lineTo(x(0.6, side), y(0.6));
        context.stroke();
      }

      // Centre dashes, 4 units apart, 2 long, moving toward the viewer.
      context.fillStyle = '#f2a900';
      const offset = travelled % 4;
      for (let start = FAR - offset; start > 0.7; start -= 4) {
        const near = Math.max(start - 2, 0.6);
        const half = 0.02;
        context.beginPath();
        context.moveTo(x(start, -half), y(start));
        context.lineTo(x(start, half), y(start));
        context.lineTo(x(near, half), y(near));
        context.lineTo(x(near, -half), y(near));
        context.fill();
      }

      // Reflector posts on both shoulders.
      const spacing = FAR / scene.posts;
      const postOffset = travelled % spacing;
      for (let d = FAR - postOffset; d > 0.8; d -= spacing) {
        const size = Math.max(1, (h * 0.09) / d);
        for (const side of [-1.15, 1.15]) {
          context.fillStyle = 'rgba(220, 228, 236, 0.8)';
          context.fillRect(x(d, side) - size * 0.08, y(d) - size, size * 0.16, size);
          context.fillStyle = side < 0 ? '#f2a900' : '#ff6b57';
          context.fillRect(x(d, side) - size * 0.08, y(d) - size, size * 0.16, size * 0.22);
        }
      }
    };

    const tick = (now: number) => {
      frame = window.requestAnimationFrame(tick);
      if (now - last < scene.frameMs) return;
      const elapsed = last ? Math.min(now - last, 100) : 0;
      last = now;
      travelled += (scene.speed * elapsed) / 1000;
      draw();
    };

    const start = () => {
      window.cancelAnimationFrame(frame);
      last = 0;
      if (visible && !stopped && document.visibilityState === 'visible') {
        frame = window.requestAnimationFrame(tick);
      } else {
        draw();
      }
    };

    pause.current = (value: boolean) => {
      stopped = value;
      setPaused(value);
      start();
    };
    // A change of the preference while the page is open is followed, as the visitor's latest word.
    const motionChanged = () => pause.current(reducedMotion.matches);

    const observer = new IntersectionObserver(([entry]) => {
      visible = entry?.isIntersecting ?? true;
      start();
    });
    observer.observe(canvas);
    const resizeObserver = new ResizeObserver(resize);
    resizeObserver.observe(canvas);
    reducedMotion.addEventListener('change', motionChanged);
    phone.addEventListener('change', resize);
    document.addEventListener('visibilitychange', start);
    resize();
    pause.current(stopped);

    return () => {
      window.cancelAnimationFrame(frame);
      observer.disconnect();
      resizeObserver.disconnect();
      reducedMotion.removeEventListener('change', motionChanged);
      phone.removeEventListener('change', resize);
      document.removeEventListener('visibilitychange', start);
    };
  }, []);

  // The island's container (Home.tsx) covers the hero without taking clicks; the canvas sits behind the hero's
  // content and its gradients (-z-20 within the hero's isolated stacking), the button above it, aligned with the
  // content's left edge.
  return (
    <>
      <canvas ref={canvasRef} aria-hidden="true" data-testid="road-canvas" className="absolute inset-0 -z-20 size-full" />
      {paused !== null && (
        <div className="container-site absolute inset-x-0 bottom-3 md:bottom-5">
          <button
            type="button"
            onClick={() => pause.current(!paused)}
            className="pointer-events-auto inline-flex items-center gap-2 rounded-full border border-white/40 bg-ink/70 px-3 py-1.5 text-sm font-semibold text-white hover:border-white hover:bg-ink"
          >
            <Icon name={paused ? 'play' : 'pause'} className="size-4 shrink-0" />
            {paused ? t('Play animation') : t('Pause animation')}
          </button>
        </div>
      )}
    </>
  );
}
