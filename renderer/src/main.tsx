import "./lib/zod-jitless.ts";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ApiContext } from "./api/api-context.ts";
import { getApi } from "./api/get-api.ts";
import { App } from "./app.tsx";
import "./styles.css";

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root");

createRoot(root).render(
  <StrictMode>
    <ApiContext value={getApi()}>
      <App />
    </ApiContext>
  </StrictMode>,
);
