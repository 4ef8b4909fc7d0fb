/**
 * Entry point of the score render threads (a piscina pool the API thread owns): engraving with
 * verovio and resvg, and the JSON export, both CPU-bound.
 */
import { workerData } from 'node:worker_threads';
import { musicXmlToJson, renderNotation, type NotationRender, type RenderTask } from '../scores/exports/index.js';
import { niceThisThread } from '../threads/index.js';

niceThisThread((workerData as { nice: number }).nice);

export default function renderTask(task: RenderTask): Promise<NotationRender> | string {
  return task.kind === 'engrave' ? renderNotation(task.musicXml) : musicXmlToJson(task.musicXml);
}
