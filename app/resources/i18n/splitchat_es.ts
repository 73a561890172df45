<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>App</name>
    <message>
        <location filename="../../ui/app.py" line="+32"/>
        <source>Starting splitchat…</source>
        <translation>Iniciando splitchat…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>splitchat: the administrator&apos;s policy</source>
        <translation>splitchat: la política del administrador</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>{error}

Until your IT department fixes it, splitchat runs on this computer only and its settings cannot be changed.</source>
        <translation>{error}

Hasta que su departamento de informática lo corrija, splitchat funciona solo en este equipo y su configuración no se puede cambiar.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>splitchat settings</source>
        <translation>Configuración de splitchat</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <location filename="../../ui/banner.py" line="+22"/>
        <source>Demonstration model: check every fact.</source>
        <translation>Modelo de demostración: compruebe cada dato.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Details</source>
        <translation>Detalles</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Less</source>
        <translation>Menos</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&lt;b&gt;Nothing leaves this computer.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Nada sale de este equipo.&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;Only hidden states go to “{name}”, identifiers replaced.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Solo los estados ocultos van a «{name}», con los identificadores sustituidos.&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Only hidden states go to “{name}” — and can be read back.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Solo los estados ocultos van a «{name}», y se pueden reconstruir.&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Where your text goes</source>
        <translation>Adónde va su texto</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Show the whole statement: what leaves, who can read it back, as measured</source>
        <translation>Mostrar la declaración completa: qué sale, quién puede reconstruirlo y cuánto, según lo medido</translation>
    </message>
</context>
<context>
    <name>ChatPane</name>
    <message>
        <location filename="../../ui/sending_ahead.py" line="+26"/>
        <source>Sent ahead as you type: what you write reaches the worker before Send (Settings → Provider).</source>
        <translation>Envío anticipado mientras escribe: lo que escribe llega al servidor antes de pulsar Enviar (Configuración → Proveedor).</translation>
    </message>
    <message>
        <location filename="../../ui/banner.py" line="+50"/>
        <source>The built-in model is a small demonstration model: its answers are often wrong — check every fact against the source.</source>
        <translation>El modelo integrado es un pequeño modelo de demostración: sus respuestas a menudo son erróneas; compruebe cada dato con la fuente.</translation>
    </message>
    <message>
        <location filename="../../ui/conversation_export.py" line="+17"/>
        <source>Export conversation — the file is plain text, not protected: anyone who can open it can read it</source>
        <translation>Exportar la conversación: el archivo es texto sin protección; cualquiera que pueda abrirlo puede leerlo</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Exported from splitchat; started {created}.</source>
        <translation>Exportada desde splitchat; iniciada el {created}.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>conversation</source>
        <translation>conversación</translation>
    </message>
    <message>
        <location filename="../../ui/chat_pane.py" line="+86"/>
        <source>Type or paste a message — Ctrl+Enter sends, Esc stops an answer</source>
        <translation>Escriba o pegue un mensaje: Ctrl+Intro lo envía, Esc detiene una respuesta</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your message to the model: Ctrl+Enter sends it, Esc stops an answer</source>
        <translation>Su mensaje para el modelo: Ctrl+Intro lo envía, Esc detiene una respuesta</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Send</source>
        <translation>Enviar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regenerate</source>
        <translation>Regenerar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the model read</source>
        <translation>Lo que leyó el modelo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the conversation as the model read and wrote it, its stand-ins for identifiers highlighted</source>
        <translation>Mostrar la conversación tal como el modelo la leyó y la escribió, con los sustitutos de los identificadores resaltados</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send the message to the model (Ctrl+Enter)</source>
        <translation>Enviar el mensaje al modelo (Ctrl+Intro)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the answer being written; what it wrote is kept (Esc)</source>
        <translation>Detener la respuesta que se está escribiendo; se conserva lo escrito (Esc)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the last answer again</source>
        <translation>Escribir de nuevo la última respuesta</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save this conversation as a Markdown file (Ctrl+E)</source>
        <translation>Guardar esta conversación como archivo Markdown (Ctrl+E)</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Exported to {path}</source>
        <translation>Exportada a {path}</translation>
    </message>
    <message>
        <location filename="../../ui/sending_ahead.py" line="+70"/>
        <source>Could not send ahead as you type: {what}</source>
        <translation>No se pudo enviar por anticipado mientras escribía: {what}</translation>
    </message>
    <message>
        <location filename="../../ui/chat_pane.py" line="+81"/>
        <source>Stopping…</source>
        <translation>Deteniendo…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>New conversation</source>
        <translation>Nueva conversación</translation>
    </message>
    <message>
        <location filename="../../ui/model_view.py" line="+94"/>
        <source>Reading the conversation as the model did…</source>
        <translation>Leyendo la conversación como la leyó el modelo…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>What the model read: 1 identifier replaced by a stand-in.</source>
        <translation>Lo que leyó el modelo: 1 identificador sustituido.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What the model read: {count} identifiers replaced by stand-ins.</source>
        <translation>Lo que leyó el modelo: {count} identificadores sustituidos.</translation>
    </message>
    <message>
        <location filename="../../ui/streaming_answer.py" line="+32"/>
        <source>The answer is finished.</source>
        <translation>La respuesta ha terminado.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The answer reached the longest-answer limit and was cut there (Settings → Decoding).</source>
        <translation>La respuesta alcanzó la longitud máxima y se cortó ahí (Configuración → Decodificación).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopped; what was written so far is kept.</source>
        <translation>Detenida; se conserva lo escrito hasta ahora.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped: the answer was repeating itself. Regenerate, or ask again in other words.</source>
        <translation>Detenida: la respuesta se repetía. Regenérela o pregunte de nuevo con otras palabras.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Writing…</source>
        <translation>Escribiendo…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reading your message: {done} of {total} tokens…</source>
        <translation>Leyendo su mensaje: {done} de {total} tokens…</translation>
    </message>
    <message>
        <location filename="../../ui/sending_ahead.py" line="-67"/>
        <source>Sending the draft ahead as you type…</source>
        <translation>Enviando el borrador por anticipado mientras escribe…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sent ahead: the worker holds {tokens} tokens of this conversation; Send starts from there.</source>
        <translation>Enviado por anticipado: el servidor tiene {tokens} tokens de esta conversación; Enviar continúa desde ahí.</translation>
    </message>
    <message>
        <location filename="../../ui/streaming_answer.py" line="+1"/>
        <source>Stopped before the answer began; your message is kept — Regenerate answers it.</source>
        <translation>Detenida antes de que empezara la respuesta; su mensaje se conserva: Regenerar lo responde.</translation>
    </message>
    <message>
        <location filename="../../ui/model_view.py" line="-88"/>
        <source>Reading your message as the model will, before anything is sent…</source>
        <translation>Leyendo su mensaje como lo leerá el modelo, antes de enviar nada…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sending the message as you reviewed it…</source>
        <translation>Enviando el mensaje tal como lo revisó…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing was sent; your message is still in the box.</source>
        <translation>No se envió nada; su mensaje sigue en el cuadro de texto.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing was sent; the answer is as it was.</source>
        <translation>No se envió nada; la respuesta sigue como estaba.</translation>
    </message>
    <message>
        <location filename="../../ui/banner.py" line="+5"/>
        <source>Each message is shown to you as the model will read it, and sent only once you confirm it.</source>
        <translation>Cada mensaje se le muestra tal como lo leerá el modelo y solo se envía cuando usted lo confirma.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Privacy tab</source>
        <translation>pestaña Privacidad</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>most of the words it receives (run the evaluation in the Privacy tab to measure this model)</source>
        <translation>la mayoría de las palabras que recibe (ejecute la evaluación en la pestaña Privacidad para medir este modelo)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{low}–{high} % of the words it receives (measured for the built-in model at every split depth; run the evaluation in the Privacy tab to measure this model)</source>
        <translation>del {low} al {high}&#xa0;% de las palabras que recibe (medido para el modelo integrado en todas las profundidades de división; ejecute la evaluación en la pestaña Privacidad para medir este modelo)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>more than 9 identifier words in 10 are found (92–99 % in English, 95–98 % in Spanish, measured on documents the detector was not tuned on; 91–94 % in chats and transcripts); the rest reach it as written</source>
        <translation>se detectan más de 9 de cada 10 palabras identificativas (del 92 al 99&#xa0;% en inglés y del 95 al 98&#xa0;% en español, medido en documentos para los que el detector no se ajustó; del 91 al 94&#xa0;% en chats y transcripciones); el resto le llega tal como está escrito</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Split depth {depth}: {depth} layers at each end run here.</source>
        <translation>Profundidad de división {depth}: {depth} capas de cada extremo se ejecutan aquí.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Identifiers are also replaced by stand-ins before the model reads them.</source>
        <translation>Además, los identificadores se sustituyen antes de que el modelo los lea.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;Nothing leaves this computer.&lt;/b&gt; The model runs here, its middle layers in a worker process on this machine.</source>
        <translation>&lt;b&gt;Nada sale de este equipo.&lt;/b&gt; El modelo se ejecuta aquí, con sus capas intermedias en un proceso servidor de este mismo equipo.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&lt;b&gt;Only hidden states leave for {where}, with identifiers replaced.&lt;/b&gt; Names, dates, record numbers, addresses and the like are replaced by stand-ins and put back in the answer here: {detection}. From the hidden states, whoever runs the worker can read back {readable} — see the {privacy_tab}.</source>
        <translation>&lt;b&gt;Solo los estados ocultos salen hacia {where}, con los identificadores sustituidos.&lt;/b&gt; Los nombres, fechas, números de historia o de expediente, direcciones y datos similares se sustituyen y se restituyen aquí en la respuesta: {detection}. A partir de los estados ocultos, quien gestiona el servidor puede reconstruir {readable}; consulte la {privacy_tab}.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&lt;b&gt;Only hidden states leave for {where} — but they can be read back.&lt;/b&gt; Whoever runs the worker can recover {readable}, identifiers included: pseudonymisation is off for this provider. See the {privacy_tab}.</source>
        <translation>&lt;b&gt;Solo los estados ocultos salen hacia {where}, pero se pueden reconstruir.&lt;/b&gt; Quien gestiona el servidor puede recuperar {readable}, incluidos los identificadores: la seudonimización está desactivada para este proveedor. Consulte la {privacy_tab}.</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../ui/chat_view.py" line="+33"/>
        <source>You</source>
        <translation>Usted</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assistant</source>
        <translation>Asistente</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <location line="+141"/>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy this message as Markdown</source>
        <translation>Copiar este mensaje como Markdown</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy the message from {who} as Markdown</source>
        <translation>Copiar el mensaje de {who} como Markdown</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Message from {who}</source>
        <translation>Mensaje de {who}</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>as the model wrote it</source>
        <translation>tal como lo escribió el modelo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>as the model read it</source>
        <translation>tal como lo leyó el modelo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>writing…</source>
        <translation>escribiendo…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>stand-in “{text}”</source>
        <translation>sustituto «{text}»</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{who} ({state}): {text}</source>
        <translation>{who} ({state}): {text}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{who}: {text}</source>
        <translation>{who}: {text}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Conversation</source>
        <translation>Conversación</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The messages in order, each with who wrote it; Page Up and Page Down scroll</source>
        <translation>Los mensajes en orden, cada uno con quién lo escribió; Re Pág y Av Pág desplazan</translation>
    </message>
</context>
<context>
    <name>ConversationPanel</name>
    <message>
        <location filename="../../ui/conversation_panel.py" line="+35"/>
        <source>Search conversations…</source>
        <translation>Buscar conversaciones…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search conversations</source>
        <translation>Buscar conversaciones</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shows only the conversations whose title or messages contain the words</source>
        <translation>Muestra solo las conversaciones cuyo título o mensajes contienen las palabras</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Conversations</source>
        <translation>Conversaciones</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Newest first; choose one to read it, Delete removes it</source>
        <translation>Las más recientes primero; elija una para leerla; Supr la elimina</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>New</source>
        <translation>Nueva</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rename</source>
        <translation>Renombrar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Start a new conversation (Ctrl+N)</source>
        <translation>Iniciar una nueva conversación (Ctrl+N)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rename the chosen conversation</source>
        <translation>Renombrar la conversación elegida</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the chosen conversation and all its messages (asks first)</source>
        <translation>Eliminar la conversación elegida y todos sus mensajes (pregunta antes)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{title}
Last message: {when}</source>
        <translation>{title}
Último mensaje: {when}</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Rename conversation</source>
        <translation>Renombrar la conversación</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Title:</source>
        <translation>Título:</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Delete conversation</source>
        <translation>Eliminar la conversación</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete “{title}” and all its messages? This cannot be undone.</source>
        <translation>¿Eliminar «{title}» y todos sus mensajes? No se puede deshacer.</translation>
    </message>
</context>
<context>
    <name>CredentialErrors</name>
    <message>
        <location filename="../../ui/data_text.py" line="+109"/>
        <source>The token is empty.</source>
        <translation>El token está vacío.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No system keyring is available.</source>
        <translation>No hay ningún llavero del sistema disponible.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The keyring in use ({backend}) keeps passwords in a file, not in a system store.</source>
        <translation>El llavero en uso ({backend}) guarda las contraseñas en un archivo, no en un almacén del sistema.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No system keyring is available (the keyring in use, {backend}, stores nothing).</source>
        <translation>No hay ningún llavero del sistema disponible (el llavero en uso, {backend}, no guarda nada).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The keyring in use ({backend}) is not available.</source>
        <translation>El llavero en uso ({backend}) no está disponible.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The keyring in use ({backend}) is not a system store.</source>
        <translation>El llavero en uso ({backend}) no es un almacén del sistema.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The system keyring is not available ({reason}). On Linux install and unlock a Secret Service (GNOME Keyring or KWallet); splitchat does not store tokens in plain text.</source>
        <translation>El llavero del sistema no está disponible ({reason}). En Linux, instale y desbloquee un Secret Service (GNOME Keyring o KWallet); splitchat no guarda los tokens en texto sin cifrar.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The system keyring could not be read ({reason}).</source>
        <translation>No se pudo leer el llavero del sistema ({reason}).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The system keyring could not be changed ({reason}).</source>
        <translation>No se pudo modificar el llavero del sistema ({reason}).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>splitchat keeps tokens only in the operating system&apos;s own keyring: on Linux install and unlock a Secret Service (GNOME Keyring) or KWallet; on Windows the Credential Manager is used; on macOS the Keychain.</source>
        <translation>splitchat solo guarda los tokens en el llavero propio del sistema operativo: en Linux, instale y desbloquee un Secret Service (GNOME Keyring) o KWallet; en Windows se usa el Administrador de credenciales; en macOS, el Llavero.</translation>
    </message>
</context>
<context>
    <name>Endings</name>
    <message>
        <location filename="../../ui/messages.py" line="+151"/>
        <source>cut at the longest-answer limit (Settings → Decoding)</source>
        <translation>cortada en la longitud máxima (Configuración → Decodificación)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped before the end</source>
        <translation>detenida antes del final</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped: the answer was repeating itself</source>
        <translation>detenida: la respuesta se repetía</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut off: the connection to the worker was lost</source>
        <translation>interrumpida: se perdió la conexión con el servidor</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut off by an error</source>
        <translation>interrumpida por un error</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unfinished: splitchat closed before the end</source>
        <translation>sin terminar: splitchat se cerró antes del final</translation>
    </message>
</context>
<context>
    <name>Engine</name>
    <message>
        <location filename="../../ui/engine_text.py" line="+21"/>
        <source>Converting the bundled model (first start only)</source>
        <translation>Convirtiendo el modelo incluido (solo en el primer inicio)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Converting the bundled model: {text}</source>
        <translation>Convirtiendo el modelo incluido: {text}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reading the GGUF metadata</source>
        <translation>leyendo los metadatos GGUF</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reading the tokenizer</source>
        <translation>leyendo el tokenizador</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>opening the tensors</source>
        <translation>abriendo los tensores</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>converting tensor {done}/{total} {name}</source>
        <translation>convirtiendo el tensor {done}/{total} {name}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>writing model.safetensors</source>
        <translation>escribiendo model.safetensors</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model ready</source>
        <translation>Modelo listo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Starting the local worker</source>
        <translation>Iniciando el servidor local</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Loading the local layers</source>
        <translation>Cargando las capas locales</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Worker session lost ({code}); reconnecting…</source>
        <translation>Se perdió la sesión del servidor ({code}); reconectando…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reconnected to a new worker session; it reads the conversation again before going on.</source>
        <translation>Reconectado a una nueva sesión del servidor; vuelve a leer la conversación antes de continuar.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Worker unreachable; reconnecting in {seconds} s…</source>
        <translation>No se puede acceder al servidor; reconectando en {seconds} s…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Writing layers {first}..{last}</source>
        <translation>Escribiendo las capas {first}..{last}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shard written</source>
        <translation>Capas del servidor escritas</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading the model</source>
        <translation>Leyendo el modelo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pseudonymising the corpus</source>
        <translation>Seudonimizando el corpus</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Codebook at depth {depth} ({done}/{total} tokens)</source>
        <translation>Diccionario de vectores a profundidad {depth} ({done}/{total} tokens)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Head search at depth {depth} ({done}/{total} positions)</source>
        <translation>Búsqueda con la cabeza a profundidad {depth} ({done}/{total} posiciones)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Training the inversion MLP (step {done}/{total})</source>
        <translation>Entrenando el ataque de inversión (paso {done}/{total})</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Running the model over the corpus ({done}/{total} chunks)</source>
        <translation>Ejecutando el modelo sobre el corpus ({done}/{total} fragmentos)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Python {version} documentation topics (pydoc_data): {total} documents</source>
        <translation>temas de la documentación de Python {version} (pydoc_data): {total} documentos</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{attacker} at depth {depth}, {direction}: done</source>
        <translation>{attacker} a profundidad {depth}, {direction}: hecho</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <location filename="../../ui/messages.py" line="-144"/>
        <source>The cloud worker cannot be reached.</source>
        <translation>No se puede acceder al servidor en la nube.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the network connection and the endpoint in Settings, or ask your administrator whether the worker is running.</source>
        <translation>Compruebe la conexión de red y la dirección del servidor en Configuración, o pregunte a su administrador si el servidor está en marcha.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The cloud worker refused the access token (401).</source>
        <translation>El servidor en la nube rechazó el token de acceso (401).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enter the current token for this provider in Settings → Provider.</source>
        <translation>Introduzca el token vigente de este proveedor en Configuración → Proveedor.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The cloud worker serves different model weights than this computer.</source>
        <translation>El servidor en la nube sirve pesos del modelo distintos de los de este equipo.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask your administrator to deploy the worker bundle exported for this model and split depth (Settings → Export worker bundle…).</source>
        <translation>Pida a su administrador que instale el paquete del servidor exportado para este modelo y esta profundidad de división (Configuración → Exportar paquete del servidor…).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The cloud worker was set up for a different split depth than the one chosen here.</source>
        <translation>El servidor en la nube se configuró para una profundidad de división distinta de la elegida aquí.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose the worker&apos;s split depth in Settings → Split depth, or ask your administrator to deploy a worker bundle exported for this depth.</source>
        <translation>Elija la profundidad de división del servidor en Configuración → Profundidad de división, o pida a su administrador que instale un paquete del servidor exportado para esta profundidad.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No access token is set for this provider.</source>
        <translation>No hay ningún token de acceso configurado para este proveedor.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enter the token your administrator gave you in Settings → Provider → Access token.</source>
        <translation>Introduzca el token que le dio su administrador en Configuración → Proveedor → Token de acceso.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The connection to the cloud worker dropped and could not be restored.</source>
        <translation>La conexión con el servidor en la nube se cortó y no se pudo restablecer.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your conversation is saved. Send again once the connection is back.</source>
        <translation>Su conversación está guardada. Vuelva a enviar cuando se restablezca la conexión.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The cloud worker presented a different certificate than the pinned one; nothing was sent to it.</source>
        <translation>El servidor en la nube presentó un certificado distinto del fijado; no se le envió nada.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>If the worker&apos;s certificate was replaced, ask your administrator for the new SHA-256 pin; otherwise someone may be intercepting the connection.</source>
        <translation>Si se sustituyó el certificado del servidor, pida a su administrador la nueva huella SHA-256; si no, alguien podría estar interceptando la conexión.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The cloud worker&apos;s certificate could not be verified.</source>
        <translation>No se pudo verificar el certificado del servidor en la nube.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>For a worker with a self-signed certificate, enter its SHA-256 pin in Settings → Provider.</source>
        <translation>Para un servidor con un certificado autofirmado, introduzca su huella SHA-256 en Configuración → Proveedor.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This endpoint is ws:// to another computer: the hidden states and the access token would cross the network unencrypted, so nothing was sent.</source>
        <translation>Esta dirección es ws:// hacia otro equipo: los estados ocultos y el token de acceso cruzarían la red sin cifrar, así que no se envió nada.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Use the worker&apos;s wss:// address (docs/DEPLOY.md), or ask your administrator to allow unencrypted endpoints in the policy.</source>
        <translation>Use la dirección wss:// del servidor (docs/DEPLOY.md) o pida a su administrador que permita direcciones sin cifrar en la política.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A certificate pin was set for an unencrypted ws:// endpoint.</source>
        <translation>Se fijó una huella de certificado para una dirección ws:// sin cifrar.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the worker&apos;s wss:// address, or remove the pin.</source>
        <translation>Use la dirección wss:// del servidor o quite la huella.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The cloud worker is serving as many sessions as it allows.</source>
        <translation>El servidor en la nube atiende ya tantas sesiones como permite.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Try again in a minute, or ask your administrator to raise the worker&apos;s session limit.</source>
        <translation>Vuelva a intentarlo dentro de un minuto o pida a su administrador que aumente el límite de sesiones del servidor.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This conversation is longer than the model can hold.</source>
        <translation>Esta conversación es más larga de lo que el modelo puede abarcar.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start a new conversation (earlier ones stay in the list).</source>
        <translation>Inicie una nueva conversación (las anteriores siguen en la lista).</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The cloud worker reported an error ({code}): {error}</source>
        <translation>El servidor en la nube notificó un error ({code}): {error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Try again; if it persists, tell your administrator.</source>
        <translation>Vuelva a intentarlo; si persiste, avise a su administrador.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Nothing was sent: the model would have read your message otherwise than you reviewed it.</source>
        <translation>No se envió nada: el modelo habría leído su mensaje de forma distinta a como usted lo revisó.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Press Regenerate to review it again.</source>
        <translation>Pulse Regenerar para revisarlo de nuevo.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model cannot be loaded: {error}</source>
        <translation>No se puede cargar el modelo: {error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the model in Settings, or reinstall splitchat.</source>
        <translation>Compruebe el modelo en Configuración o reinstale splitchat.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tokens are only kept in the system keyring.</source>
        <translation>Los tokens solo se guardan en el llavero del sistema.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Correct it and try again.</source>
        <translation>Corríjalo y vuelva a intentarlo.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose an empty or new folder.</source>
        <translation>Elija una carpeta vacía o nueva.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A file is missing: {file}</source>
        <translation>Falta un archivo: {file}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reinstall splitchat or choose another model.</source>
        <translation>Reinstale splitchat o elija otro modelo.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Something went wrong: {error}</source>
        <translation>Algo salió mal: {error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your conversation is saved. Try again; if it persists, report it.</source>
        <translation>Su conversación está guardada. Vuelva a intentarlo; si persiste, notifíquelo.</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <location filename="../../ui/i18n.py" line="+37"/>
        <source>As the system ({language})</source>
        <translation>Como el sistema ({language})</translation>
    </message>
    <message>
        <location line="+111"/>
        <source>As the system</source>
        <translation>Como el sistema</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/main_window.py" line="+117"/>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Progress</source>
        <translation>Progreso</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Loading the model, or exporting a worker bundle: the status line says which</source>
        <translation>Cargando el modelo o exportando un paquete del servidor: la línea de estado indica cuál</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;New conversation</source>
        <translation>&amp;Nueva conversación</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Export conversation as Markdown…</source>
        <translation>&amp;Exportar la conversación como Markdown…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Privacy</source>
        <translation>&amp;Privacidad</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Preferences…</source>
        <translation>Pre&amp;ferencias…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Settings</source>
        <translation>&amp;Configuración</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>Loading the model…</source>
        <translation>Cargando el modelo…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The privacy estimate could not be read: {error}</source>
        <translation>No se pudo leer la estimación de privacidad: {error}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Ready — on this computer.</source>
        <translation>Listo: en este equipo.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ready — connected to “{provider}”.</source>
        <translation>Listo: conectado a «{provider}».</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The local worker stopped; it will be restarted for the next message.</source>
        <translation>El servidor local se detuvo; se reiniciará con el próximo mensaje.</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>The language changes the next time splitchat starts.</source>
        <translation>El idioma cambiará la próxima vez que se inicie splitchat.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Settings saved; they apply from the next message.</source>
        <translation>Configuración guardada; se aplica a partir del próximo mensaje.</translation>
    </message>
</context>
<context>
    <name>MetricsDock</name>
    <message>
        <location filename="../../ui/metrics_dock.py" line="+23"/>
        <source>&lt;p&gt;&lt;b&gt;No answer yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;While an answer is written, this panel shows its speed, how many words each round trip to the worker brings back, and where each step&apos;s time goes (network, this computer, the worker).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Todavía no hay ninguna respuesta.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Mientras se escribe una respuesta, este panel muestra su velocidad, cuántas palabras trae cada viaje de ida y vuelta al servidor y en qué se va el tiempo de cada paso (la red, este equipo, el servidor).&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>network</source>
        <translation>red</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>local</source>
        <translation>local</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>remote</source>
        <translation>remoto</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>serialization</source>
        <translation>serialización</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Live metrics</source>
        <translation>Métricas en vivo</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Live metrics</source>
        <translation>&amp;Métricas en vivo</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No generation yet.</source>
        <translation>Todavía no se ha generado nada.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Throughput (tok/s)</source>
        <translation>Velocidad (tokens/s)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens per round trip</source>
        <translation>Tokens por viaje de ida y vuelta</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step time (ms)</source>
        <translation>Tiempo por paso (ms)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Network round trip (ms)</source>
        <translation>Viaje de ida y vuelta por la red (ms)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>break-even a*</source>
        <translation>punto de equilibrio a*</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Last {trips} round trips: {speed} tok/s, {per_trip} tokens per round trip, network {network} ms</source>
        <translation>Últimos {trips} viajes de ida y vuelta: {speed} tokens/s, {per_trip} tokens por viaje, red {network} ms</translation>
    </message>
</context>
<context>
    <name>PrivacyDock</name>
    <message>
        <location filename="../../ui/privacy_dock.py" line="+26"/>
        <source>Privacy</source>
        <translation>Privacidad</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Privacy evaluation cancelled; nothing was saved.</source>
        <translation>Evaluación de privacidad cancelada; no se guardó nada.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Privacy evaluation finished.</source>
        <translation>Evaluación de privacidad terminada.</translation>
    </message>
</context>
<context>
    <name>PrivacyView</name>
    <message>
        <location filename="../../ui/privacy_view.py" line="+34"/>
        <source>sent · public weights (head search)</source>
        <translation>enviado · pesos públicos (búsqueda con la cabeza)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>sent · learned MLP</source>
        <translation>enviado · ataque entrenado (MLP)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>returned · public weights (tail)</source>
        <translation>devuelto · pesos públicos (capas finales)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>returned · learned MLP</source>
        <translation>devuelto · ataque entrenado (MLP)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No privacy estimate is available for this model yet. Run the evaluation to measure how many tokens an attacker could recover from the hidden states at each split depth.</source>
        <translation>Todavía no hay ninguna estimación de privacidad para este modelo. Ejecute la evaluación para medir cuántos tokens podría recuperar un atacante a partir de los estados ocultos en cada profundidad de división.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>baseline: most frequent token</source>
        <translation>referencia: el token más frecuente</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Now the built-in worker on this computer answers, so nothing crosses the network: these figures are what the operator of a remote worker could read back, were one chosen in Settings.</source>
        <translation>Ahora responde el servidor integrado en este equipo, así que nada cruza la red: estas cifras indican lo que podría reconstruir quien gestionara un servidor remoto, si se eligiera uno en Configuración.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>measured on {tokens} test tokens of {corpus}</source>
        <translation>medido con {tokens} tokens de prueba de {corpus}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Evaluation of {date}, {measured}.</source>
        <translation>Evaluación del {date}, {measured}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its default settings</source>
        <translation>su configuración predeterminada</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the settings in docs/PRIVACY.md</source>
        <translation>la configuración de docs/PRIVACY.md</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This is the measurement shipped with splitchat for exactly these weights: splitchat privacy with {settings} (depths {depths}), run on {date} and {measured}. Run the evaluation to measure it on this computer or on your own documents.</source>
        <translation>Esta es la medición que acompaña a splitchat para exactamente estos pesos: splitchat privacy con {settings} (profundidades {depths}), ejecutada el {date} y {measured}. Ejecute la evaluación para medirlo en este equipo o con sus propios documentos.</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>recovered</source>
        <translation>recuperados</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>Privacy measurement</source>
        <translation>Medición de la privacidad</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>&lt;b&gt;Tokens recovered (top-1)&lt;/b&gt; at each split depth</source>
        <translation>&lt;b&gt;Tokens recuperados (top-1)&lt;/b&gt; en cada profundidad de división</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tokens recovered at each split depth</source>
        <translation>Tokens recuperados en cada profundidad de división</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>split depth</source>
        <translation>profundidad de división</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Split depth: the layers kept on this computer at each end of the model</source>
        <translation>Profundidad de división: las capas que se quedan en este equipo en cada extremo del modelo</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Run privacy evaluation</source>
        <translation>Ejecutar la evaluación de privacidad</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure how much of the text the hidden states give away at each split depth (takes minutes)</source>
        <translation>Medir cuánto del texto revelan los estados ocultos en cada profundidad de división (tarda minutos)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the evaluation; nothing is saved</source>
        <translation>Detener la evaluación; no se guarda nada</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Privacy evaluation progress</source>
        <translation>Progreso de la evaluación de privacidad</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>The local layers are a published checkpoint: anyone can download them, so the public-weights attacks apply.</source>
        <translation>Las capas locales son un modelo publicado: cualquiera puede descargarlas, así que los ataques con pesos públicos son aplicables.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The local layers are private weights: the public-weights attacks apply only if they leak. Keeping them private is an operational duty, not a guarantee.</source>
        <translation>Las capas locales son pesos privados: los ataques con pesos públicos solo son aplicables si se filtran. Mantenerlos en privado es una obligación operativa, no una garantía.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>{series}: {values}</source>
        <translation>{series}: {values}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>depth {depth} {share}%</source>
        <translation>profundidad {depth}: {share}&#xa0;%</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>{series}: {share}%</source>
        <translation>{series}: {share}&#xa0;%</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Depth {depth} was not measured (measured: {depths}).</source>
        <translation>La profundidad {depth} no se midió (medidas: {depths}).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>an attacker holding the public weights</source>
        <translation>un atacante que dispone de los pesos públicos</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an attacker trained on collected activations (the public-weights attacks were not run)</source>
        <translation>un atacante entrenado con activaciones recopiladas (no se ejecutaron los ataques con pesos públicos)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>At depth {depth}, {who} recovers {share}% of the tokens sent to the worker (95% CI {low}–{high}%)</source>
        <translation>A profundidad {depth}, {who} recupera el {share}&#xa0;% de los tokens enviados al servidor (IC del 95&#xa0;%: {low}–{high}&#xa0;%)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>one trained on collected activations recovers {share}%</source>
        <translation>uno entrenado con activaciones recopiladas recupera el {share}&#xa0;%</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A quick estimate: only {tokens} test tokens, so the interval is wide — run the full evaluation for a firm figure.</source>
        <translation>Es una estimación rápida: solo {tokens} tokens de prueba, así que el intervalo es amplio; ejecute la evaluación completa para obtener una cifra firme.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Guessing the most frequent token scores {share}%.</source>
        <translation>Adivinar el token más frecuente acierta el {share}&#xa0;%.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>about {share} % of the tokens (word pieces) it receives — measured for this model by the splitchat project, shipped with the app, at depth {depth} on {tokens} test tokens</source>
        <translation>aproximadamente el {share}&#xa0;% de los tokens (fragmentos de palabra) que recibe, según la medición del proyecto splitchat para este modelo que acompaña a la aplicación, a profundidad {depth} con {tokens} tokens de prueba</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>about {share} % of the tokens (word pieces) it receives — measured for this model at depth {depth} on {tokens} test tokens</source>
        <translation>aproximadamente el {share}&#xa0;% de los tokens (fragmentos de palabra) que recibe, según lo medido para este modelo a profundidad {depth} con {tokens} tokens de prueba</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, a quick estimate</source>
        <translation>, una estimación rápida</translation>
    </message>
</context>
<context>
    <name>ReviewDialog</name>
    <message>
        <location filename="../../ui/review_dialog.py" line="+30"/>
        <source>Review before sending</source>
        <translation>Revisar antes de enviar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;This is your message as the model will read it.&lt;/b&gt; Nothing has been sent yet. Highlighted and underlined words are stand-ins for identifiers; the originals stay on this computer. Select words the model should not read and hide them, or select a stand-in to send the original as written. Earlier messages of this conversation are read with the same choices.</source>
        <translation>&lt;b&gt;Este es su mensaje tal como lo leerá el modelo.&lt;/b&gt; Todavía no se ha enviado nada. Las palabras resaltadas y subrayadas son sustitutos de identificadores; los originales se quedan en este equipo. Seleccione las palabras que el modelo no debe leer y ocúltelas, o seleccione un sustituto para enviar el original tal como se escribió. Los mensajes anteriores de esta conversación se leen con las mismas decisiones.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Hide selected words</source>
        <translation>&amp;Ocultar las palabras seleccionadas</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace the selected words by a stand-in in this message and every other of this conversation</source>
        <translation>Sustituir las palabras seleccionadas en este mensaje y en todos los demás de esta conversación</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Send selected stand-in as &amp;written</source>
        <translation>Enviar el original del sus&amp;tituto seleccionado</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The selected stand-in replaced words that are not an identifier: send the original words instead</source>
        <translation>El sustituto seleccionado reemplazó palabras que no son un identificador: enviar las palabras originales en su lugar</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Send</source>
        <translation>&amp;Enviar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send exactly the text shown (Enter)</source>
        <translation>Enviar exactamente el texto mostrado (Intro)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back to the message box: your message stays there and nothing is sent (Esc)</source>
        <translation>Volver al cuadro de texto: su mensaje sigue ahí y no se envía nada (Esc)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Identifiers are not replaced for this provider (Settings → Provider → Pseudonymise): the message is sent as written.</source>
        <translation>Para este proveedor no se sustituyen los identificadores (Configuración → Proveedor → Seudonimizar): el mensaje se envía tal como está escrito.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Select the words to hide first.</source>
        <translation>Seleccione primero las palabras que quiere ocultar.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The selection is a stand-in already: use “Send selected stand-in as written” to undo it.</source>
        <translation>La selección ya es un sustituto: use «Enviar el original del sustituto seleccionado» para deshacerlo.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Select a highlighted stand-in, or put the cursor in one, first.</source>
        <translation>Seleccione primero un sustituto resaltado o coloque el cursor en uno.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Your message as the model will read it</source>
        <translation>Su mensaje tal como lo leerá el modelo</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Stand-ins for identifiers in it: {stand_ins}</source>
        <translation>Sustitutos de identificadores que contiene: {stand_ins}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No identifier in it is replaced.</source>
        <translation>No se sustituye ningún identificador.</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>“{words}” could not be hidden: the model would still read it. Cancel to reword the message.</source>
        <translation>No se pudo ocultar «{words}»: el modelo lo seguiría leyendo. Cancele para reformular el mensaje.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>“{words}” is hidden from the model in this conversation, earlier messages included.</source>
        <translation>«{words}» queda oculto al modelo en esta conversación, también en los mensajes anteriores.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Still replaced: {terms} — the detector finds it again. The text shown is what is sent.</source>
        <translation>Sigue sustituido: {terms}; el detector lo vuelve a encontrar. El texto mostrado es lo que se envía.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Sent as written from now on: {terms}.</source>
        <translation>A partir de ahora se envía tal como está escrito: {terms}.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>That is not a stand-in of this conversation.</source>
        <translation>Eso no es un sustituto de esta conversación.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Reading the message again…</source>
        <translation>Leyendo de nuevo el mensaje…</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/provider_page.py" line="+34"/>
        <source>Embedded (this computer only)</source>
        <translation>Integrado (solo este equipo)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Locked by your administrator&apos;s policy.</source>
        <translation>Bloqueado por la política de su administrador.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pseudonymise identifiers before they reach the model</source>
        <translation>Seudonimizar los identificadores antes de que lleguen al modelo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Names, dates, record numbers, addresses and other identifiers are replaced by consistent stand-ins on this computer before the model reads them, and put back in the answer. On documents the detector was not tuned on it finds 92–99 % of identifier words in English and 95–98 % in Spanish, and 91–94 % in chats, voicemail transcripts and dictation: the rest, and all other text, still reach the worker as hidden states (see the Privacy tab). Review before sending lets you check each message.</source>
        <translation>Los nombres, fechas, números de historia o de expediente, direcciones y demás identificadores se sustituyen en este equipo por sustitutos coherentes antes de que el modelo los lea, y se restituyen en la respuesta. En documentos para los que el detector no se ajustó, encuentra del 92 al 99&#xa0;% de las palabras identificativas en inglés y del 95 al 98&#xa0;% en español, y del 91 al 94&#xa0;% en chats, transcripciones de mensajes de voz y dictados: el resto, y todo el demás texto, sigue llegando al servidor como estados ocultos (consulte la pestaña Privacidad). Revisar antes de enviar le permite comprobar cada mensaje.</translation>
    </message>
    <message>
        <location filename="../../ui/model_page.py" line="+37"/>
        <source>Depth</source>
        <translation>Profundidad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layers kept on this computer at each end of the model</source>
        <translation>Capas que se quedan en este equipo en cada extremo del modelo</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compute here</source>
        <translation>Cálculo aquí</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layers computed on this computer, their share of the compute, and the time per step</source>
        <translation>Capas calculadas en este equipo, su parte del cálculo y el tiempo por paso</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Memory here</source>
        <translation>Memoria aquí</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weights this computer holds: embedding, the edge layers, final norm and head</source>
        <translation>Pesos que guarda este equipo: la incrustación (embedding), las capas de los extremos, la normalización final y la cabeza</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Worker memory</source>
        <translation>Memoria remota</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weights the GPU worker holds (its KV cache comes on top, per session)</source>
        <translation>Pesos que guarda el servidor GPU (su caché KV va aparte, por sesión)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recovered (sent / returned)</source>
        <translation>Recuperado (enviado / devuelto)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens an attacker recovers from what crosses the network (privacy evaluation)</source>
        <translation>Tokens que un atacante recupera de lo que cruza la red (evaluación de privacidad)</translation>
    </message>
    <message>
        <location line="+133"/>
        <location filename="../../ui/settings_dialog.py" line="+45"/>
        <source>auto</source>
        <translation>automático</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="+1"/>
        <source>learned</source>
        <translation>aprendido</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lookahead</source>
        <translation>anticipación (Jacobi)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lookup</source>
        <translation>búsqueda en el contexto</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sequential</source>
        <translation>secuencial</translation>
    </message>
    <message>
        <location filename="../../ui/model_page.py" line="-123"/>
        <source>Llama 2/3 (also SmolLM2)</source>
        <translation>Llama 2/3 (también SmolLM2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mistral and Mistral NeMo</source>
        <translation>Mistral y Mistral NeMo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Qwen2 and Qwen2.5</source>
        <translation>Qwen2 y Qwen2.5</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phi-3 and Phi-3.5</source>
        <translation>Phi-3 y Phi-3.5</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="+2"/>
        <source>The window&apos;s language, and how numbers and dates are written. A change applies the next time splitchat starts.</source>
        <translation>El idioma de la ventana y cómo se escriben los números y las fechas. Un cambio se aplica la próxima vez que se inicie splitchat.</translation>
    </message>
    <message>
        <location filename="../../ui/model_page.py" line="+7"/>
        <source>1 file</source>
        <translation>1 archivo</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} files</source>
        <translation>{count} archivos</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{family}: {layers} layers, {dtype}, {size} GB in {files}</source>
        <translation>{family}: {layers} capas, {dtype}, {size} GB en {files}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>, tied embeddings</source>
        <translation>, incrustaciones compartidas</translation>
    </message>
    <message>
        <location filename="../../ui/provider_page.py" line="+8"/>
        <source>Send long messages to the worker while I type (the answer starts sooner)</source>
        <translation>Enviar los mensajes largos al servidor mientras escribo (la respuesta empieza antes)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>With this on, what you type reaches the worker (as hidden states, pseudonymised like a sent message) before you press Send — text you delete or never send included. The worker forgets deleted text.</source>
        <translation>Con esta opción activada, lo que escribe llega al servidor (como estados ocultos, seudonimizado como un mensaje enviado) antes de pulsar Enviar, incluido el texto que borre o no llegue a enviar. El servidor olvida el texto borrado.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Compress hidden states on the network (lossless)</source>
        <translation>Comprimir los estados ocultos en la red (sin pérdida)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Long messages then send about 1.1–1.4× fewer bytes each way, for a few milliseconds of processor time a megabyte: it pays on links slower than about 500 Mbit/s. The answer is the same either way.</source>
        <translation>Los mensajes largos envían entonces entre 1,1 y 1,4 veces menos bytes en cada sentido, a cambio de unos milisegundos de procesador por megabyte: compensa en enlaces de menos de unos 500 Mbit/s. La respuesta es la misma en ambos casos.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The embedded worker runs on this computer: nothing crosses a network to compress.</source>
        <translation>El servidor integrado se ejecuta en este equipo: nada cruza una red que haya que comprimir.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your administrator&apos;s policy requires identifiers to be replaced for every provider.</source>
        <translation>La política de su administrador exige sustituir los identificadores para todos los proveedores.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show each message as the model will read it, before it is sent</source>
        <translation>Mostrar cada mensaje tal como lo leerá el modelo, antes de enviarlo</translation>
    </message>
    <message>
        <source>Also read each message with the bundled model to find identifiers (every provider)</source>
        <translation>Leer además cada mensaje con el modelo incluido para encontrar identificadores (todos los proveedores)</translation>
    </message>
    <message>
        <source>The detector&apos;s last stage reads the whole message with the bundled model on this computer and finds identifiers only the sentence gives away (about one in ten of those the other stages miss). It costs about half a second to a second and a half per 1,000 words and about 350 MB of memory. Applies to conversations opened after saving.</source>
        <translation>La última etapa del detector lee el mensaje completo con el modelo incluido en este equipo y encuentra identificadores que solo delata la frase (alrededor de uno de cada diez de los que las otras etapas pasan por alto). Cuesta entre medio segundo y segundo y medio por cada 1000 palabras y unos 350 MB de memoria. Se aplica a las conversaciones abiertas después de guardar.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send then shows your message with its identifiers replaced, exactly as the worker&apos;s model will read it; you can hide words the detector missed or send a stand-in&apos;s original as written. Nothing leaves this computer until you press Send there.</source>
        <translation>Enviar muestra entonces su mensaje con los identificadores sustituidos, exactamente como lo leerá el modelo del servidor; puede ocultar palabras que el detector no encontró o enviar el original de un sustituto tal como se escribió. Nada sale de este equipo hasta que pulse Enviar allí.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The embedded worker runs on this computer: nothing leaves it, so there is nothing to review.</source>
        <translation>El servidor integrado se ejecuta en este equipo: nada sale de él, así que no hay nada que revisar.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your administrator&apos;s policy requires every message to a remote provider to be reviewed.</source>
        <translation>La política de su administrador exige revisar cada mensaje dirigido a un proveedor remoto.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>review_always is set in settings.json: every message to a remote provider is reviewed.</source>
        <translation>review_always está activado en settings.json: se revisa cada mensaje dirigido a un proveedor remoto.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Off while each message is reviewed before it is sent: nothing leaves before you confirm it.</source>
        <translation>Desactivado mientras cada mensaje se revisa antes de enviarlo: nada sale antes de que usted lo confirme.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>pseudonymise_always is set in settings.json: identifiers are replaced for every provider.</source>
        <translation>pseudonymise_always está activado en settings.json: los identificadores se sustituyen para todos los proveedores.</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="+20"/>
        <source>splitchat settings</source>
        <translation>Configuración de splitchat</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Provider</source>
        <translation>&amp;Proveedor</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Model and split depth</source>
        <translation>&amp;Modelo y profundidad de división</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Decoding</source>
        <translation>&amp;Decodificación</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language</source>
        <translation>&amp;Idioma</translation>
    </message>
    <message>
        <location filename="../../ui/provider_page.py" line="+45"/>
        <source>Provider (where the middle layers run)</source>
        <translation>Proveedor (dónde se ejecutan las capas intermedias)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>optional: SHA-256 of a self-signed certificate</source>
        <translation>opcional: SHA-256 de un certificado autofirmado</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Forget token</source>
        <translation>Olvidar el token</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Add provider</source>
        <translation>Añadir proveedor</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove provider</source>
        <translation>Quitar proveedor</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Test connection</source>
        <translation>Probar la conexión</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Provider</source>
        <translation>Proveedor</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Endpoint</source>
        <translation>Dirección del servidor</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificate pin</source>
        <translation>Huella del certificado</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Access token</source>
        <translation>Token de acceso</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>The embedded default needs no token: nothing leaves this computer.</source>
        <translation>El servidor integrado predeterminado no necesita token: nada sale de este equipo.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A new token was typed; it is stored in the system keyring when you save.</source>
        <translation>Se escribió un token nuevo; se guardará en el llavero del sistema al guardar.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A token is set (stored in the system keyring). Type a new one to replace it.</source>
        <translation>Hay un token configurado (guardado en el llavero del sistema). Escriba uno nuevo para sustituirlo.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No token set.</source>
        <translation>No hay ningún token configurado.</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>A provider named {name} already exists.</source>
        <translation>Ya existe un proveedor llamado {name}.</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Connecting to {endpoint}…</source>
        <translation>Conectando con {endpoint}…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>✓ Connected. Worker serves layers {first}–{last} (fingerprint {fingerprint}…); round trip {rtt} ms.</source>
        <translation>✓ Conectado. El servidor sirve las capas {first}–{last} (huella {fingerprint}…); viaje de ida y vuelta: {rtt} ms.</translation>
    </message>
    <message>
        <location filename="../../ui/model_page.py" line="+32"/>
        <source>Split depth (layers kept on this computer at each end)</source>
        <translation>Profundidad de división (capas que se quedan en este equipo en cada extremo)</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Split depths and what each costs</source>
        <translation>Profundidades de división y lo que cuesta cada una</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One row per depth: the compute and memory on this computer and on the worker, and the tokens an attacker recovers</source>
        <translation>Una fila por profundidad: el cálculo y la memoria en este equipo y en el servidor, y los tokens que recupera un atacante</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>smollm2-135m-instruct (bundled), or a Hugging Face model folder</source>
        <translation>smollm2-135m-instruct (incluido) o una carpeta de modelo de Hugging Face</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose folder…</source>
        <translation>Elegir carpeta…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Export worker bundle…</source>
        <translation>Exportar paquete del servidor…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the middle layers of this model at this depth, for the GPU server</source>
        <translation>Escribir las capas intermedias de este modelo a esta profundidad, para el servidor GPU</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Worker bundle export progress</source>
        <translation>Progreso de la exportación del paquete del servidor</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Split depth</source>
        <translation>Profundidad de división</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device for the local layers</source>
        <translation>Dispositivo para las capas locales</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>{local} of {layers} layers ({share}%)</source>
        <translation>{local} de {layers} capas ({share}&#xa0;%)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, ≈{ms} ms a step here</source>
        <translation>, ≈{ms} ms por paso aquí</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>choose a model to size it</source>
        <translation>elija un modelo para calcularlo</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{size} ({dtype}) + each conversation&apos;s cache</source>
        <translation>{size} ({dtype}) + la caché de cada conversación</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Choose a model folder (config.json, tokenizer, safetensors)</source>
        <translation>Elija una carpeta de modelo (config.json, tokenizador, safetensors)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Checking {model}…</source>
        <translation>Comprobando {model}…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Someone running the worker, holding the published model, could read back about {sent}% of the words this computer sends it at depth {depth}, and {returned}% of what it sends back. Keeping more layers here changes this little; replacing identifiers before sending (Provider tab) is what keeps names, dates and numbers from the worker.</source>
        <translation>Quien gestiona el servidor, con el modelo publicado, podría reconstruir aproximadamente el {sent}&#xa0;% de las palabras que este equipo le envía a profundidad {depth}, y el {returned}&#xa0;% de lo que devuelve. Mantener más capas aquí cambia esto poco; lo que protege los nombres, las fechas y los números frente al servidor es sustituir los identificadores antes de enviar (pestaña Proveedor).</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>not measured yet (run the privacy evaluation)</source>
        <translation>aún sin medir (ejecute la evaluación de privacidad)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not measured at this depth</source>
        <translation>sin medir a esta profundidad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{sent}% / {returned}% (public weights)</source>
        <translation>{sent}&#xa0;% / {returned}&#xa0;% (pesos públicos)</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="+37"/>
        <location line="+8"/>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Decoding and sampling</source>
        <translation>Decodificación y muestreo</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>auto: every draft source, sized each step from live measurements (recommended)
learned: the model&apos;s trained draft head plus context lookup
lookahead: Jacobi n-grams plus context lookup
lookup: n-grams from the conversation only
sequential: one token per round trip</source>
        <translation>automático: todas las fuentes de borradores, dimensionadas en cada paso a partir de mediciones en vivo (recomendado)
aprendido: la cabeza de borrador entrenada del modelo más la búsqueda en el contexto
anticipación (Jacobi): n-gramas de Jacobi más la búsqueda en el contexto
búsqueda en el contexto: solo n-gramas de la conversación
secuencial: un token por viaje de ida y vuelta</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Decoding mode</source>
        <translation>Modo de decodificación</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speculation budget (tokens per round trip)</source>
        <translation>Presupuesto de especulación (tokens por viaje de ida y vuelta)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature (0 = greedy)</source>
        <translation>Temperatura (0 = voraz)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest answer (tokens)</source>
        <translation>Respuesta más larga (tokens)</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Checking {model} before saving…</source>
        <translation>Comprobando {model} antes de guardar…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Not saved: {model} is not a model splitchat can use ({why}). The model stays {saved}.</source>
        <translation>No se guardó: {model} no es un modelo que splitchat pueda usar ({why}). El modelo sigue siendo {saved}.</translation>
    </message>
</context>
<context>
    <name>SettingsErrors</name>
    <message>
        <location filename="../../ui/data_text.py" line="-116"/>
        <source>A provider profile needs a name.</source>
        <translation>Un perfil de proveedor necesita un nombre.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Endpoint {endpoint!r} must start with ws:// or wss://.</source>
        <translation>La dirección del servidor {endpoint!r} debe empezar por ws:// o wss://.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A certificate pin is a SHA-256 fingerprint: 64 hex digits (colons allowed).</source>
        <translation>Una huella de certificado es una huella SHA-256: 64 dígitos hexadecimales (se admiten dos puntos).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A provider&apos;s {switch} switch is true or false.</source>
        <translation>La opción {switch} de un proveedor es true o false.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name!r} must be {kind}, not {value!r}.</source>
        <translation>{name!r} debe ser {kind}, no {value!r}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The split depth {split!r} is not one: {reason}.</source>
        <translation>{split!r} no es una profundidad de división: {reason}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Provider {name!r} uses ws://, which would send the hidden states unencrypted over the network. Use wss:// (docs/DEPLOY.md), or ask your administrator to allow unencrypted endpoints in the policy (allow_unencrypted_endpoints).</source>
        <translation>El proveedor {name!r} usa ws://, que enviaría los estados ocultos sin cifrar por la red. Use wss:// (docs/DEPLOY.md) o pida a su administrador que permita direcciones sin cifrar en la política (allow_unencrypted_endpoints).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Two provider profiles have the same name.</source>
        <translation>Dos perfiles de proveedor tienen el mismo nombre.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The active provider {name!r} has no profile.</source>
        <translation>El proveedor activo {name!r} no tiene perfil.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Decoding mode must be one of {choices}.</source>
        <translation>El modo de decodificación debe ser uno de estos: {choices}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device must be one of {choices}.</source>
        <translation>El dispositivo debe ser uno de estos: {choices}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language must be one of {choices}.</source>
        <translation>El idioma debe ser uno de estos: {choices}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature must lie in [0, 5] and top-p in (0, 1].</source>
        <translation>La temperatura debe estar en [0, 5] y top-p en (0, 1].</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The pseudonymise switches are true or false.</source>
        <translation>Las opciones de seudonimización son true o false.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The speculation budget must be ≥ 0 and the answer length ≥ 1 token.</source>
        <translation>El presupuesto de especulación debe ser ≥ 0 y la longitud de la respuesta ≥ 1 token.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the file must hold a JSON object</source>
        <translation>el archivo debe contener un objeto JSON</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&apos;profiles&apos; must be a list</source>
        <translation>&apos;profiles&apos; debe ser una lista</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>each provider profile needs a &apos;name&apos; and an &apos;endpoint&apos;</source>
        <translation>cada perfil de proveedor necesita &apos;name&apos; y &apos;endpoint&apos;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a provider profile has keys splitchat does not keep: {keys}</source>
        <translation>un perfil de proveedor tiene claves que splitchat no guarda: {keys}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your settings file could not be used ({error}); it was moved to {aside} and the defaults apply.</source>
        <translation>No se pudo usar su archivo de configuración ({error}); se movió a {aside} y se aplican los valores predeterminados.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{key!r} is locked by the administrator&apos;s policy.</source>
        <translation>{key!r} está bloqueado por la política del administrador.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The admin policy {origin} cannot be applied: {error}</source>
        <translation>No se puede aplicar la política del administrador {origin}: {error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy cannot be read ({reason}).</source>
        <translation>No se puede leer la política del administrador ({reason}).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy {origin} is not valid JSON ({reason}).</source>
        <translation>La política del administrador {origin} no es JSON válido ({reason}).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy {origin} must be a JSON object.</source>
        <translation>La política del administrador {origin} debe ser un objeto JSON.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy {origin}: &apos;values&apos; must be an object of settings.</source>
        <translation>La política del administrador {origin}: &apos;values&apos; debe ser un objeto de ajustes.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy {origin}: &apos;locked&apos; must be a list of setting names.</source>
        <translation>La política del administrador {origin}: &apos;locked&apos; debe ser una lista de nombres de ajustes.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy names unknown settings: {keys}.</source>
        <translation>La política del administrador nombra ajustes desconocidos: {keys}.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy&apos;s allow_unencrypted_endpoints is true or false.</source>
        <translation>El valor allow_unencrypted_endpoints de la política del administrador es true o false.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy&apos;s {kind}_terms must be a list of terms.</source>
        <translation>El valor {kind}_terms de la política del administrador debe ser una lista de términos.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy&apos;s {kind}_terms_file must be a file&apos;s path.</source>
        <translation>El valor {kind}_terms_file de la política del administrador debe ser la ruta de un archivo.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The admin policy&apos;s {kind}_terms_file {path} cannot be read ({reason}).</source>
        <translation>No se puede leer el archivo {kind}_terms_file {path} de la política del administrador ({reason}).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>text</source>
        <translation>texto</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a whole number</source>
        <translation>un número entero</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a number</source>
        <translation>un número</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>true or false</source>
        <translation>true o false</translation>
    </message>
</context>
<context>
    <name>WorkerBundleExport</name>
    <message>
        <location filename="../../ui/bundle_export.py" line="+33"/>
        <source>Export the worker bundle into an empty folder</source>
        <translation>Exportar el paquete del servidor a una carpeta vacía</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Worker bundle written to {folder}: layers {first}–{last}, fingerprint {fingerprint}…</source>
        <translation>Paquete del servidor escrito en {folder}: capas {first}–{last}, huella {fingerprint}…</translation>
    </message>
</context>
</TS>
