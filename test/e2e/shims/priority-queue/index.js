'use strict';
// Test-only stand-in for @wireapp/priority-queue 2.x, which @wireapp/api-client's HTTP client
// uses to run requests one at a time, highest priority first, retrying when asked to. The real
// package is not in the registry mirror CI installs from; this keeps its observable behaviour.

const Priority = { LOW: 0, MEDIUM: 1, HIGH: 2 };

class PriorityQueue {
  constructor(config = {}) {
    this.config = {
      maxRetries: 0,
      retryDelay: 1000,
      maxRetryDelay: Number.MAX_SAFE_INTEGER,
      retryGrowthFactor: 1.3,
      shouldRetry: () => true,
      ...config,
    };
    this.items = [];
    this.running = false;
    this.order = 0;
  }

  get size() {
    return this.items.length;
  }

  add(fn, priority = Priority.MEDIUM, label) {
    return new Promise((resolve, reject) => {
      this.items.push({ fn, priority, label, resolve, reject, attempts: 0, order: this.order++ });
      this.items.sort((a, b) => b.priority - a.priority || a.order - b.order);
      if (!this.running) this.next();
    });
  }

  deleteAll() {
    this.items = [];
  }

  async next() {
    const item = this.items.shift();
    this.running = item !== undefined;
    if (!item) return;
    try {
      item.resolve(await item.fn());
    } catch (error) {
      const { maxRetries, retryDelay, retryGrowthFactor, maxRetryDelay, shouldRetry } = this.config;
      if (item.attempts < maxRetries && shouldRetry(error)) {
        const delay = Math.min(retryDelay * Math.max(1, item.attempts * retryGrowthFactor), maxRetryDelay);
        item.attempts += 1;
        this.items.unshift(item);
        setTimeout(() => this.next(), delay);
        return;
      }
      item.reject(error);
    }
    this.next();
  }
}

exports.Priority = Priority;
exports.PriorityQueue = PriorityQueue;
